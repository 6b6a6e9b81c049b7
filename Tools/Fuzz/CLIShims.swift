// What the staged parsers would need from the modules the fuzzer does not build: nothing now. The
// error type, its causes and the mapping of any error to one (`RouteLogError.from`) are compiled
// from the session layer's own import-free file, RouteLogSessions/Errors/RouteLogError.swift; the
// core's errors say which they are in RouteLogSessions/Errors/ErrorMapping.swift (RouteLogCore
// only), which a build that stages it links as well.
