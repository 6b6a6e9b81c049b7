// One `import RouteLog` gives an app the navigator and the vocabulary its API speaks in: events,
// outcomes, presentation styles, `NewSession`, `InMemoryEventLog`, fixtures (RouteLogCore).
@_exported import RouteLogCore
