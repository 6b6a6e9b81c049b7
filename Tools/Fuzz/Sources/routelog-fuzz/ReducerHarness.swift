// A structure-aware harness for the reducer: the input is read as a program of events (a byte
// picks the kind, the next bytes its fields, drawn from small alphabets so routes, tokens and tabs
// collide often; at most 128 events), the events are folded from the empty state, and after every event:
// - the state passes `validate()`;
// - the digest the reducer maintains equals the digest computed from scratch;
// - the event survives the binary codec and the canonical JSON exactly, and so does the state
//   (every fourth one and the last: its round trips cost more than the fold).
// The same events are folded beside it with `applyWithoutDigest` (the store's check of a batch
// its caller folded), which must give the same outcome every event and, with its digest refreshed,
// the same state. At the end the whole fold is repeated through `Replayer` and must give the same state.

@_spi(Tools) @testable import RouteLogCore

/// Reads bytes as small choices; past the end every choice is 0.
struct ByteProgram {
    let bytes: UnsafeRawBufferPointer
    var i = 0
    var atEnd: Bool { i >= bytes.count }
    mutating func byte() -> UInt8 {
        defer { i += 1 }
        return i < bytes.count ? bytes[i] : 0
    }
    mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }
}

let fuzzRouteIDs = ["a", "b", "c", "inbox", "upsell", "", "ü"]
let fuzzTabIDs = ["home", "search", "lib", ""]

extension ByteProgram {
    mutating func route() -> RouteRef {
        let id = pick(fuzzRouteIDs)
        switch byte() % 4 {
        case 0: return RouteRef(id: id, type: "T", payload: try? RawJSON(parsing: "{\"n\":\(byte())}"))
        case 1: return RouteRef(id: id, type: "T")
        default: return RouteRef(id: id)
        }
    }

    /// A token: mostly one the state holds (or just missed), sometimes anything.
    mutating func token(_ state: NavigationState) -> UInt64 {
        let live = state.presentationChain.map(\.token)
        let choice = byte() % 4
        if choice < 2 && !live.isEmpty { return pick(live) }
        if choice == 2 { return UInt64(byte() % 16) }
        let wide: [UInt64] = [0, 1, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max]
        return pick(wide)
    }

    mutating func frame(_ state: NavigationState) -> FrameRef? {
        switch byte() % 3 {
        case 0: return nil
        case 1: return .root
        default: return .presentation(token(state))
        }
    }

    mutating func event(_ state: NavigationState, past: [NavigationState]) -> Event {
        switch byte() % 10 {
        case 0, 1: return .push(route(), frame: frame(state))
        case 2:
            let counts = [1, 1, 2, 3, 0, -1, Int.max, Int.min]
            return .pop(count: pick(counts), frame: frame(state))
        case 3: return .popToRoot(frame: frame(state))
        case 4:
            let placement: Placement = switch byte() % 4 {
            case 0: .onTop
            case 1: .in(frame(state) ?? .root)
            default: .replacingTop
            }
            return .show(route(), style: pick(PresentationStyle.allCases), dismissible: byte() % 4 != 0, placement: placement)
        case 5:
            let target: DismissTarget = switch byte() % 3 {
            case 0: .top
            case 1: .token(token(state))
            default: .all
            }
            return .dismiss(target)
        case 6: return .interactiveDismiss(token: byte() % 2 == 0 ? nil : token(state))
        case 7:
            let n = Int(byte() % 4)
            var ids: [String] = []
            for _ in 0..<n { ids.append(pick(fuzzTabIDs)) }
            return .setTabs(ids, selected: byte() % 3 == 0 ? nil : pick(fuzzTabIDs))
        case 8: return .selectTab(pick(fuzzTabIDs))
        default:
            // A reset to a state seen earlier in the fold (always valid), or to the empty state.
            return .reset(past.isEmpty || byte() % 4 == 0 ? NavigationState() : pick(past))
        }
    }
}

func fuzzReducer(_ buffer: UnsafeRawBufferPointer) {
    var program = ByteProgram(bytes: buffer)
    var state = NavigationState()
    var light = NavigationState()
    var past: [NavigationState] = []
    var events: [Event] = []
    var seq: UInt64 = 0
    while !program.atEnd && events.count < 128 {
        let event = program.event(state, past: past)
        seq += 1
        let outcome = state.apply(event, seq: seq)
        check(light.applyWithoutDigest(event, seq: seq) == outcome, "applyWithoutDigest gives another outcome for #\(seq) \(event.canonicalJSON)")
        var refreshed = light
        refreshed.refreshDigest()
        check(refreshed == state && refreshed.digest == state.digest, "applyWithoutDigest leaves another state after #\(seq) \(event.canonicalJSON)")
        events.append(event)
        let problems = state.validate()
        check(problems.isEmpty, "state invalid after #\(seq) \(event.canonicalJSON): \(problems)")
        check(state.digest == state.computeDigest(), "incremental digest differs from the computed one after #\(seq) \(event.canonicalJSON)")
        checkRoundTrips(event)
        // The state's round trips cost more than the fold: every fourth state, and the last.
        if seq % 4 == 0 || program.atEnd { checkRoundTrips(state) }
        if seq % 8 == 0 { past.append(state) }
    }
    let replayed = replay(events)
    check(replayed.state == state && replayed.state.digest == state.digest, "Replayer folds to a different state")
}

func checkRoundTrips(_ state: NavigationState) {
    let stateBytes = BinaryCodec.encode(state)
    guard let decodedState = try? BinaryCodec.decodeState(stateBytes) else { fatalError("an encoded state does not decode: \(state.canonicalJSON)") }
    check(decodedState == state && decodedState.digest == state.digest, "binary round trip changes the state: \(state.canonicalJSON)")
    check(BinaryCodec.encode(decodedState) == stateBytes, "binary re-encoding of a state differs")
    let stateText = state.canonicalJSON
    guard let fromJSON = try? NavigationState(jsonText: stateText) else { fatalError("a state's canonical JSON does not read back: \(stateText)") }
    check(fromJSON == state && fromJSON.digest == state.digest, "JSON round trip changes the state: \(stateText)")
    check(fromJSON.canonicalJSON == stateText, "JSON re-encoding of a state differs")
}

func checkRoundTrips(_ event: Event) {
    let eventBytes = BinaryCodec.encode(event)
    guard let decodedEvent = try? BinaryCodec.decodeEvent(eventBytes) else { fatalError("an encoded event does not decode: \(event.canonicalJSON)") }
    check(decodedEvent == event, "binary round trip changes the event: \(event.canonicalJSON)")
    let eventText = event.canonicalJSON
    guard let eventFromJSON = try? Event(jsonText: eventText) else { fatalError("an event's canonical JSON does not read back: \(eventText)") }
    check(eventFromJSON == event, "JSON round trip changes the event: \(eventText) reads as \(eventFromJSON.canonicalJSON)")
}
