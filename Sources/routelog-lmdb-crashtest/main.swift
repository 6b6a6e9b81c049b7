// A child process for the RouteLogLMDB reliability tests.
//
//   routelog-lmdb-crashtest append STORE SESSION SEED DURABILITY
//       Appends small batches forever, printing "acked SEQ" after each commit (until killed).
//   routelog-lmdb-crashtest follow STORE SESSION UNTIL
//       Follows the session, replaying as it goes; prints "mismatch SEQ …" and exits 2 if a stored
//       digest or seq is not the replay's, "done SEQ" once it reached UNTIL.
//   routelog-lmdb-crashtest open STORE (rw|ro) [nobody]
//       Opens the store (as user nobody when asked and run as root); prints "ok SESSIONS" or
//       "error: MESSAGE" (exit 1). Lets tests see permission errors that root would bypass.
import Foundation
import RouteLogCore
import RouteLogLMDB

/// Writes one line to stdout, unbuffered, so a kill never loses an acknowledged line.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    say("error: \(message)")
    exit(code)
}

let args = CommandLine.arguments
guard args.count >= 3 else { fail("usage: routelog-lmdb-crashtest append|follow|open STORE …", code: 64) }
let store = args[2]

switch args[1] {
case "append":
    guard args.count == 6, let seed = UInt64(args[4]) else { fail("usage: append STORE SESSION SEED DURABILITY", code: 64) }
    let durability: LMDBEventLog.Durability = switch args[5] {
    case "perEvent": .perEvent
    case "grouped": .grouped(maxDelay: .milliseconds(20))
    default: .none
    }
    do {
        // A tiny map, so that kills also land during growth.
        let log = try LMDBEventLog.open(at: store, options: .init(durability: durability, snapshotInterval: 16, initialMapSize: 64 << 10))
        let session = SessionID(args[3])
        var seq = try log.session(session).eventCount
        var generator = SessionGenerator(seed: seed &+ seq)
        var rng = SplitMix64(seed: seed ^ 0x5EED)
        while true {
            let n = Int(rng.next() % 8) + 1
            let batch = generator.events(n).map { RecordedEvent($0, meta: EventMetadata(timestamp: Int64(seq) + 1)) }
            let stored = try log.append(batch, to: session, expectedSeq: seq)
            seq = stored.last!.seq
            say("acked \(seq)")
        }
    } catch {
        fail("\(error)")
    }

case "follow":
    guard args.count == 5, let until = UInt64(args[4]) else { fail("usage: follow STORE SESSION UNTIL", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        var replayer = Replayer()
        for try await event in log.follow(session: SessionID(args[3]), from: 1) {
            let step = replayer.apply(event.event)
            guard event.seq == step.seq, event.digest == step.digest, event.outcome == step.outcome else {
                say("mismatch \(event.seq): stored digest \(event.digest.short), replayed \(step.digest.short) at seq \(step.seq)")
                exit(2)
            }
            if event.seq >= until { break }
        }
        say("done \(replayer.seq)")
    } catch {
        fail("\(error)")
    }

case "open":
    guard args.count >= 4 else { fail("usage: open STORE rw|ro [nobody]", code: 64) }
    if args.count >= 5, args[4] == "nobody", getuid() == 0 {
        guard setgid(65534) == 0, setuid(65534) == 0 else { fail("cannot become nobody", code: 3) }
    }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: args[3] == "ro"))
        say("ok \(try log.sessions().count)")
    } catch {
        fail("\(error)")
    }

default:
    fail("unknown command \(args[1])", code: 64)
}
