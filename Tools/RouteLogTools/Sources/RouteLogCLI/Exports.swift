// The session layer is the CLI's vocabulary (references, sessions, errors and their JSON): every
// file of the CLI and its tests see it without importing it one by one.
@_exported import RouteLogSessions
