// What every answer is computed from: a workspace's index and the snapshot it answers with (docs/api.md "One
// computation, two faces"). The daemon's routes and the in-process answers of the command line both hold one.

import type { WorkspaceSnapshot } from '../index/snapshot.js';
import type { WorkspaceIndex } from '../index/workspace-index.js';

export interface WorkspaceView {
  workspace: WorkspaceIndex;
  snapshot: WorkspaceSnapshot;
}
