@_spi(Tools) import RouteLogCore

/// The observed head of a navigator (see `Navigator.head`): the seq of the session's last event
/// and the result of the last call.
struct NavigatorHead {
    var seq: UInt64
    var result: CallResult?
}
