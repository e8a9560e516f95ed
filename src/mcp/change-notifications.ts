// Change notifications of one MCP session (docs/mcp.md §Change notifications), from the index's own diffs, the ones that
// feed `/events`:
// - the set of skills (or a skill's record) changed → `resources/list_changed` and `prompts/list_changed`;
// - a subscribed resource's bytes changed → `resources/updated` for that URI. A SKILL.md is rechecked on every index
//   change of its workspace; any subscribed file, SKILL.md included (a body edit leaves the index as it was), is also
//   watched by name in its directory (the daemon's PresenceWatcher, polling under `--watch-mode poll`) while the
//   subscription lasts, and the watch is dropped on unsubscribe or when the session ends.
// A recheck compares the file's identity (device, inode, size, mtime), or the error resolving it, with the last one
// seen, so an event that changed nothing sends nothing, and two events for one edit send one notification. Every way
// of not existing is one state: a deleted SKILL.md is first a file not found (its watch hears it), then an unknown
// skill (the index drops the skill), and that is one change, one notification.

import { basename, dirname } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isSkillsdError, type SkillsdErrorCode } from '../discovery/errors.js';
import { resolveSkillResource } from '../discovery/files/resolve-skill-url.js';
import type { IndexEvent } from '../live-index/event-log.js';
import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import { PresenceWatcher, presenceModeOf } from '../watch/watch-presence.js';
import { invalidParams } from './mcp-errors.js';
import type { McpSession } from './mcp-session.js';
import { parseSkillUri } from './skill-uri.js';
import { SubscriptionBudget } from './subscription-budget.js';

export { MAX_SUBSCRIPTIONS, MAX_SUBSCRIPTIONS_PER_SESSION, SubscriptionBudget } from './subscription-budget.js';

interface Subscription {
  state: string;
  /** Ends the subscription's presence watch. */
  unwatch: () => void;
  /** Rechecks run one at a time, so two events for one edit compare against each other's result. */
  queue: Promise<void>;
}

export class ChangeNotifier {
  private readonly server: Server;
  private readonly session: McpSession;
  private readonly subscriptions = new Map<string, Subscription>();
  /** URIs being subscribed (resolved, not yet watched): they count against the caps. */
  private readonly pending = new Set<string>();
  private readonly budget: SubscriptionBudget;
  /** The session's watches: one per directory, shared by the subscriptions in it; created on the first one. */
  private presence: PresenceWatcher | undefined;
  private stopEvents: (() => void) | undefined;
  private closed = false;

  constructor(server: Server, session: McpSession) {
    this.server = server;
    this.session = session;
    this.budget = session.deps.subscriptions ?? new SubscriptionBudget();
  }

  start(): void {
    this.stopEvents = this.session.onIndexEvent((event) => this.onIndexEvent(event));
  }

  /** Both lists may have changed (the workspace moved with the client's roots). */
  listsChanged(): void {
    if (this.closed) return;
    this.server.sendResourceListChanged().catch(() => undefined);
    this.server.sendPromptListChanged().catch(() => undefined);
  }

  async subscribe(uri: string, snapshot: WorkspaceSnapshot): Promise<void> {
    if (this.subscriptions.has(uri) || this.pending.has(uri)) return;
    const { name, rawRelative } = parseSkillUri(uri);
    // Both caps are checked and the place taken before anything is awaited: concurrent subscribes cannot pass them.
    const perSession = this.budget.perSession;
    if (this.subscriptions.size + this.pending.size >= perSession) {
      throw invalidParams(`Too many subscriptions (${perSession}) in this session`);
    }
    if (!this.budget.take()) {
      throw invalidParams(`Too many subscriptions (${this.budget.max}) in all sessions of this daemon`);
    }
    this.pending.add(uri);
    let resource: Awaited<ReturnType<typeof resolveSkillResource>>;
    try {
      // Only what resources/read would answer can be subscribed: the same guards, the same errors.
      resource = await resolveSkillResource(
        this.session.skills(snapshot),
        name,
        rawRelative,
        this.session.resolveOptions(snapshot),
      );
      if (resource.kind !== 'file') throw invalidParams(`${uri} is a directory, not a file resource`);
    } catch (error) {
      this.budget.give();
      throw error;
    } finally {
      this.pending.delete(uri);
    }
    if (this.closed) {
      this.budget.give();
      return;
    }
    const subscription: Subscription = {
      state: identityOf(resource),
      unwatch: () => {},
      queue: Promise.resolve(),
    };
    this.subscriptions.set(uri, subscription);
    // A directory that cannot be watched (watches exhausted) still hears of its SKILL.md through the index.
    this.presence ??= new PresenceWatcher({
      ...presenceModeOf(this.session.deps.getSettings().server),
      persistent: false,
      onError: () => {},
    });
    subscription.unwatch = this.presence.watch(dirname(resource.realPath), basename(resource.realPath), () =>
      this.recheck(uri),
    );
  }

  unsubscribe(uri: string): void {
    const subscription = this.subscriptions.get(uri);
    if (subscription === undefined) return;
    subscription.unwatch();
    this.subscriptions.delete(uri);
    this.budget.give();
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  close(): void {
    this.closed = true;
    this.stopEvents?.();
    for (const uri of [...this.subscriptions.keys()]) this.unsubscribe(uri);
    this.presence?.close();
  }

  private onIndexEvent(event: IndexEvent): void {
    if (this.closed || event.type !== 'index') return;
    const data = event.data as { added: string[]; removed: string[]; changed: string[] };
    if (data.added.length > 0 || data.removed.length > 0 || data.changed.length > 0) this.listsChanged();
    for (const uri of this.subscriptions.keys()) this.recheck(uri);
  }

  private recheck(uri: string): void {
    const subscription = this.subscriptions.get(uri);
    if (subscription === undefined) return;
    subscription.queue = subscription.queue.then(async () => {
      const state = await this.currentState(uri);
      if (this.closed || this.subscriptions.get(uri) !== subscription || state === subscription.state) return;
      subscription.state = state;
      await this.server.sendResourceUpdated({ uri }).catch(() => undefined);
    });
  }

  private async currentState(uri: string): Promise<string> {
    try {
      const { snapshot } = await this.session.view();
      const { name, rawRelative } = parseSkillUri(uri);
      const resource = await resolveSkillResource(
        this.session.skills(snapshot),
        name,
        rawRelative,
        this.session.resolveOptions(snapshot),
      );
      return resource.kind === 'file' ? identityOf(resource) : 'directory';
    } catch (error) {
      if (!isSkillsdError(error)) return 'error';
      return ABSENT_CODES.has(error.code) ? 'absent' : `error:${error.code}`;
    }
  }
}

/** Errors that say the resource is not there, whichever step of the resolution found it missing. */
const ABSENT_CODES: ReadonlySet<SkillsdErrorCode> = new Set(['SkillNotFound', 'FileNotFound']);

function identityOf(file: { dev: number; ino: number; size: number; mtimeMs: number }): string {
  return `${file.dev}:${file.ino}:${file.size}:${file.mtimeMs}`;
}
