import Foundation
import Logging
import MCP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// MCP's stdio transport (one JSON-RPC message a line on stdin, one a line on stdout) with a bound
/// on the line.
///
/// The SDK's `StdioTransport` reads 4 KB at a time and searches its whole buffer for a newline
/// after each read, so a long line costs time growing with its square (a 4 MB line took 33–45 s,
/// and nothing else was answered meanwhile). This one reads 1 MiB at a time on a thread of its
/// own, looks for newlines in the bytes just read only, and drops a line longer than
/// ``maxLineBytes`` as it arrives, without keeping it: the client gets a JSON-RPC error for it
/// (`-32600`, with the request's `id` when the line's start shows it at its top level, else
/// `null`) as soon as its end is read, and the server goes on with the next line.
actor LineTransport: Transport {
    /// The longest request line taken (1 MiB). A tool's string argument is at most 10,000 bytes,
    /// so no request of RouteLog's tools comes near it.
    static let maxLineBytes = 1 << 20
    /// How much of an over-long line is kept to find its id in.
    static let headBytes = 1 << 16
    static let chunkBytes = 1 << 20

    nonisolated let logger = Logger(label: "routelog.mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    private let input: Int32
    private let output: Int32
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var started = false

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !started else { return }
        started = true
        let input = input, continuation = continuation
        let thread = Thread { [weak self] in
            Self.readLines(from: input, into: continuation) { response in
                Task { [weak self] in try? await self?.send(response) }
            }
        }
        thread.start()
    }

    func disconnect() async { continuation.finish() }

    func receive() -> AsyncThrowingStream<Data, any Error> { messages }

    /// Writes `data` and a newline to the output, whole.
    func send(_ data: Data) async throws {
        var line = data
        line.append(0x0A)
        try line.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
            var done = 0
            while done < raw.count {
                let n = write(output, raw.baseAddress! + done, raw.count - done)
                if n > 0 {
                    done += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var p = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 1000)
                } else {
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
            }
        }
    }

    /// Reads `fd` to its end, handing each line (without its newline; empty lines skipped) to
    /// `continuation`, and an error response for each line over ``maxLineBytes`` to `answer`.
    /// Memory: the line being read (at most ``maxLineBytes``) and one chunk.
    static func readLines(from fd: Int32, into continuation: AsyncThrowingStream<Data, any Error>.Continuation,
                          answer: (Data) -> Void) {
        var splitter = LineSplitter()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, 1000)
                    continue
                }
                break
            }
            splitter.add(UnsafeRawBufferPointer(rebasing: chunk[0..<n])) { item in
                switch item {
                case .line(let line): continuation.yield(line)
                case .tooLong(let count, let head): answer(tooLongResponse(count: count, head: head))
                }
            }
        }
        continuation.finish()
    }

    /// The JSON-RPC error for a line of `count` bytes that starts with `head`.
    static func tooLongResponse(count: Int, head: [UInt8]) -> Data {
        let id = topLevelID(head).flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "null"
        let message = "Invalid Request: the request line is \(count) bytes, longer than the \(maxLineBytes) a request may be; it was not read"
        return Data("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"error\":{\"code\":-32600,\"message\":\"\(message)\"}}".utf8)
    }

    /// The `id` of a JSON-RPC request whose text starts with `bytes`, when it is a member of the top
    /// object (not of a nested one) within them.
    static func topLevelID(_ bytes: [UInt8]) -> ID? {
        var i = 0, depth = 0
        func skipSpace() { while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 } }
        /// The end (past the closing quote) of the string starting at `i`, or nil when it is cut.
        func stringEnd(_ start: Int) -> Int? {
            var k = start + 1
            while k < bytes.count {
                if bytes[k] == 0x5C { k += 2; continue }
                if bytes[k] == 0x22 { return k + 1 }
                k += 1
            }
            return nil
        }
        while i < bytes.count {
            switch bytes[i] {
            case 0x22:
                guard let end = stringEnd(i) else { return nil }
                let isIDKey = depth == 1 && bytes[i..<end].elementsEqual("\"id\"".utf8)
                i = end
                guard isIDKey else { continue }
                skipSpace()
                guard i < bytes.count, bytes[i] == 0x3A else { continue }
                i += 1
                skipSpace()
                guard i < bytes.count else { return nil }
                var valueEnd = i
                if bytes[i] == 0x22 {
                    guard let end = stringEnd(i) else { return nil }
                    valueEnd = end
                } else {
                    while valueEnd < bytes.count, bytes[valueEnd] == 0x2D || (0x30...0x39).contains(bytes[valueEnd]) { valueEnd += 1 }
                    guard valueEnd < bytes.count else { return nil }
                }
                return try? JSONDecoder().decode(ID.self, from: Data(bytes[i..<valueEnd]))
            case 0x7B, 0x5B: depth += 1; i += 1
            case 0x7D, 0x5D: depth -= 1; i += 1
            default: i += 1
            }
        }
        return nil
    }
}

/// Cuts a byte stream into lines, looking at each byte once, and drops a line over
/// ``LineTransport/maxLineBytes`` as it comes (keeping its first ``LineTransport/headBytes``).
struct LineSplitter {
    enum Item {
        case line(Data)
        case tooLong(count: Int, head: [UInt8])
    }

    private var pending: [UInt8] = []
    /// The bytes of the current line so far, while it is being dropped.
    private var dropped: Int?
    private let limit: Int

    init(limit: Int = LineTransport.maxLineBytes) { self.limit = limit }

    mutating func add(_ bytes: UnsafeRawBufferPointer, _ emit: (Item) -> Void) {
        var start = 0
        while start < bytes.count {
            let newline = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start).map { $0 - UnsafeMutableRawPointer(mutating: bytes.baseAddress!) }
            let end = newline ?? bytes.count
            take(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            if newline != nil {
                if let count = dropped {
                    emit(.tooLong(count: count, head: pending))
                } else if !pending.isEmpty {
                    emit(.line(Data(pending)))
                }
                pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
                dropped = nil
            }
            start = end + 1
        }
    }

    /// Adds a piece of the current line: kept while the line is within the limit, else counted.
    private mutating func take(_ piece: UnsafeRawBufferPointer) {
        if let count = dropped {
            dropped = count + piece.count
            if pending.count < LineTransport.headBytes { pending.append(contentsOf: piece.prefix(LineTransport.headBytes - pending.count)) }
        } else if pending.count + piece.count > limit {
            dropped = pending.count + piece.count
            pending.append(contentsOf: piece.prefix(max(0, LineTransport.headBytes - pending.count)))
            if pending.count > LineTransport.headBytes { pending.removeLast(pending.count - LineTransport.headBytes) }
        } else {
            pending.append(contentsOf: piece)
        }
    }
}
