// The code tables of the wire formats: one per enum, used by the binary codec, the digest and the
// store alike. The numbers are part of stored bytes and digests: never renumber a case, and give
// a new case the next free number. RouteLogCore.docc/BinaryFormat.md lists them.

extension PresentationStyle {
    /// The style's number in the binary codec, the store and digest terms.
    @inlinable public var wireCode: UInt8 {
        switch self {
        case .sheet: 0
        case .fullScreenCover: 1
        case .popover: 2
        case .alert: 3
        case .confirmationDialog: 4
        }
    }

    /// The style with number `wireCode`, or `nil` for an unknown number.
    @inlinable public init?(wireCode: UInt8) {
        switch wireCode {
        case 0: self = .sheet
        case 1: self = .fullScreenCover
        case 2: self = .popover
        case 3: self = .alert
        case 4: self = .confirmationDialog
        default: return nil
        }
    }
}

extension Event.Kind {
    /// The kind's number: the tag of an event in the binary codec, and the kind byte of a stored record.
    @inlinable public var wireCode: UInt8 {
        switch self {
        case .push: 1
        case .pop: 2
        case .popToRoot: 3
        case .show: 4
        case .dismiss: 5
        case .interactiveDismiss: 6
        case .setTabs: 7
        case .selectTab: 8
        case .reset: 9
        }
    }

    /// The kind with number `wireCode`, or `nil` for an unknown number.
    @inlinable public init?(wireCode: UInt8) {
        switch wireCode {
        case 1: self = .push
        case 2: self = .pop
        case 3: self = .popToRoot
        case 4: self = .show
        case 5: self = .dismiss
        case 6: self = .interactiveDismiss
        case 7: self = .setTabs
        case 8: self = .selectTab
        case 9: self = .reset
        default: return nil
        }
    }
}

extension RejectionReason {
    /// The reason's number (the order in which reasons were added, not their precedence).
    @inlinable public var wireCode: UInt8 {
        switch self {
        case .emptyRouteID: 0
        case .unknownFrame: 1
        case .blockedByAlert: 2
        case .invalidCount: 3
        case .stackTooShort: 4
        case .alreadyAtRoot: 5
        case .nothingToDismiss: 6
        case .unknownToken: 7
        case .stale: 8
        case .notDismissible: 9
        case .notInteractive: 10
        case .invalidTabs: 11
        case .unknownTab: 12
        case .invalidState: 13
        case .chainTooDeep: 14
        }
    }

    /// The reason with number `wireCode`, or `nil` for an unknown number.
    @inlinable public init?(wireCode: UInt8) {
        switch wireCode {
        case 0: self = .emptyRouteID
        case 1: self = .unknownFrame
        case 2: self = .blockedByAlert
        case 3: self = .invalidCount
        case 4: self = .stackTooShort
        case 5: self = .alreadyAtRoot
        case 6: self = .nothingToDismiss
        case 7: self = .unknownToken
        case 8: self = .stale
        case 9: self = .notDismissible
        case 10: self = .notInteractive
        case 11: self = .invalidTabs
        case 12: self = .unknownTab
        case 13: self = .invalidState
        case 14: self = .chainTooDeep
        default: return nil
        }
    }
}

extension Outcome {
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

extension Origin {
    /// The origin's number in the binary codec's metadata flags.
    @inlinable public var wireCode: UInt8 {
        switch self {
        case .app: 0
        case .user: 1
        case .system: 2
        }
    }

    /// The origin with number `wireCode`, or `nil` for an unknown number.
    @inlinable public init?(wireCode: UInt8) {
        switch wireCode {
        case 0: self = .app
        case 1: self = .user
        case 2: self = .system
        default: return nil
        }
    }
}
