// What every answer is computed from: a workspace's index and the snapshot it answers with. The daemon's routes and
// the command line's in-process answers (docs/cli.md "Commands", without a daemon) both hold one.

import type { WorkspaceSnapshot } from '../live-index/snapshot.js';
import type { WorkspaceIndex } from '../live-index/workspace-index.js';

export interface WorkspaceView {
  workspace: WorkspaceIndex;
  snapshot: WorkspaceSnapshot;
}
