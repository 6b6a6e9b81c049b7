// One `import RouteLogTesting` gives a test what its helpers take: the navigator and snapshots
// (RouteLog) and, through it, the core's events, outcomes and fixtures (RouteLogCore).
@_exported import RouteLog
