// The code tables of the wire formats: one per enum, used by the binary codec, the digest and the
// store alike. The numbers are part of stored bytes and digests: never reorder a table, and append
// a new case at its end. RouteLogCore.docc/BinaryFormat.md lists them.

/// A type whose values have fixed one-byte codes in the wire formats.
@_spi(Tools) public protocol WireCoded: Equatable, Sendable {
    /// Every value in code order: the value at index `i` has code ``wireCodeBase`` + `i`.
    static var wireTable: [Self] { get }
    /// The code of the table's first value.
    static var wireCodeBase: UInt8 { get }
}

@_spi(Tools) extension WireCoded {
    public static var wireCodeBase: UInt8 { 0 }

    /// The value's code.
    @inlinable public var wireCode: UInt8 {
        // Every value is in its table (a test checks it), so the search always succeeds.
        UInt8(truncatingIfNeeded: Self.wireTable.firstIndex(of: self) ?? 0xFF) &+ Self.wireCodeBase
    }

    /// The value with code `wireCode`, or `nil` for an unknown code.
    @inlinable public init?(wireCode: UInt8) {
        let i = Int(wireCode &- Self.wireCodeBase)
        let table = Self.wireTable
        guard i < table.count else { return nil }
        self = table[i]
    }
}

@_spi(Tools) extension PresentationStyle: WireCoded {
    public static let wireTable: [Self] = [.sheet, .fullScreenCover, .popover, .alert, .confirmationDialog]
}

/// The event tag of the binary codec and the kind byte of a stored record: 1 push … 9 reset.
@_spi(Tools) extension Event.Kind: WireCoded {
    public static let wireTable: [Self] = [.push, .pop, .popToRoot, .show, .dismiss, .interactiveDismiss, .setTabs, .selectTab, .reset]
    public static var wireCodeBase: UInt8 { 1 }
}

/// The origin bits of the binary codec's metadata flags (two bits: 0 app, 1 user, 2 system,
/// 3 deepLink; with `deepLink` the two bits are full).
@_spi(Tools) extension Origin: WireCoded {
    public static let wireTable: [Self] = [.app, .user, .system, .deepLink]
}

/// In the order reasons were added (not their precedence, which is their declaration order).
@_spi(Tools) extension RejectionReason: WireCoded {
    public static let wireTable: [Self] = [
        .emptyRouteID, .unknownFrame, .blockedByAlert, .invalidCount, .stackTooShort, .alreadyAtRoot,
        .nothingToDismiss, .unknownToken, .stale, .notDismissible, .notInteractive, .invalidTabs,
        .unknownTab, .invalidState, .chainTooDeep,
    ]
}

@_spi(Tools) extension Outcome {
    /// The outcome as one byte: 0 applied, 1 applied in place, 2 + ``RejectionReason/wireCode`` rejected.
    @inlinable public var wireCode: UInt8 {
        switch self {
        case .applied(.changed): 0
        case .applied(.updatedInPlace): 1
        case .rejected(let r): 2 + r.wireCode
        }
    }

    /// The outcome with byte `wireCode`, or `nil` for an unknown byte.
    @inlinable public init?(wireCode: UInt8) {
        switch wireCode {
        case 0: self = .applied(.changed)
        case 1: self = .applied(.updatedInPlace)
        default:
            guard let r = RejectionReason(wireCode: wireCode &- 2) else { return nil }
            self = .rejected(r)
        }
    }
}
