@_spi(Tools) import RouteLogCore

/// One-line descriptions of events, in the form `routelog log` prints them: `push thread-42`,
/// `show sheet composer onTop`, `interactiveDismiss #12`.
public enum EventText {
    /// The compact description of `event`.
    public static func describe(_ event: Event) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        write(event, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``describe(_:)`` as UTF-8 bytes appended to `b` (`log` writes one per line).
    package static func write(_ event: Event, into b: inout [UInt8]) {
        func frame(_ f: FrameRef?) {
            guard let f else { return }
            b.appendUTF8(" in ")
            switch f {
            case .root: b.appendUTF8("root")
            case .presentation(let t): b.append(UInt8(ascii: "#")); b.appendDecimal(t)
            }
        }
        switch event {
        case .push(let r, let f):
            b.appendUTF8("push ")
            b.appendUTF8(r.id)
            frame(f)
        case .pop(let count, let f):
            b.appendUTF8("pop")
            if count != 1 { b.append(UInt8(ascii: " ")); b.appendDecimal(count) }
            frame(f)
        case .popToRoot(let f):
            b.appendUTF8("popToRoot")
            frame(f)
        case .show(let r, let style, let dismissible, let placement):
            b.appendUTF8("show ")
            b.appendUTF8(style.rawValue)
            b.append(UInt8(ascii: " "))
            b.appendUTF8(r.id)
            if !dismissible { b.appendUTF8(" undismissible") }
            switch placement {
            case .replacingTop: break
            case .onTop: b.appendUTF8(" onTop")
            case .in(let f): frame(f)
            }
        case .dismiss(let target):
            b.appendUTF8("dismiss")
            switch target {
            case .top: break
            case .token(let t): b.appendUTF8(" #"); b.appendDecimal(t)
            case .all: b.appendUTF8(" all")
            }
        case .interactiveDismiss(let token):
            b.appendUTF8("interactiveDismiss")
            if let token { b.appendUTF8(" #"); b.appendDecimal(token) }
        case .setTabs(let ids, let selected):
            b.appendUTF8("setTabs ")
            for (i, id) in ids.enumerated() {
                if i > 0 { b.append(UInt8(ascii: ",")) }
                b.appendUTF8(id)
            }
            if let selected { b.appendUTF8(" ["); b.appendUTF8(selected); b.append(UInt8(ascii: "]")) }
        case .selectTab(let id):
            b.appendUTF8("selectTab ")
            b.appendUTF8(id)
        case .reset:
            b.appendUTF8("reset")
        }
    }
}
