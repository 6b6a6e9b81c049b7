// One `import RouteLogSwiftUI` gives a SwiftUI app the whole app-facing API: the navigator, its
// bindings and facades (RouteLog) and, through it, the core's vocabulary (RouteLogCore). The store
// (`RouteLogLMDB`) stays a separate import: an app may record into another `EventLog`.
@_exported import RouteLog
