// How long a request (REST, MCP over HTTP or stdio) waits for a workspace's first index before it is answered 503
// `NotReady` (docs/api.md §Errors): `WorkspaceIndex.whenReady` takes it. A module of its own, importing nothing, so
// that every face can take the default without loading another face's code.

export const DEFAULT_READY_WAIT_MS = 2000;
