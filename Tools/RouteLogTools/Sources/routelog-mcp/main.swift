// `routelog mcp` runs this program: a Model Context Protocol server over stdio, a thin adapter
// that turns MCP requests into calls of RouteLogAgent's `AgentTools` and their answers into MCP
// results. Read-only: it never writes to the store.
import Foundation
import MCP
import RouteLogAgent
import RouteLogSessions
@_spi(Tools) import RouteLogCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("routelog-mcp: \(message)\n".utf8))
    exit(2)
}

// Run by `routelog mcp`, this process is the child routelog watches for a damaged store (the
// exec ended the child's heartbeat thread): beat again, or a healthy server is stopped as stuck.
Heartbeat.beatIfWatched()

var storePath: String?
var unredacted = false
var fixtures: String?
let usage = "usage: routelog-mcp [--store DIR] [--unredacted] [--fixtures DIR]"
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "--store":
        guard let dir = args.popFirst() else { fail("--store needs a directory") }
        if dir.allSatisfy(\.isWhitespace) { fail("--store '\(dir)' is an empty path; give a directory") }
        storePath = dir
    case "--unredacted": unredacted = true
    case "--fixtures":
        guard let dir = args.popFirst() else { fail("--fixtures needs a directory") }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else { fail("--fixtures: not a directory: \(dir)") }
        fixtures = dir
    case "-h", "--help":
        print("\(usage)\nServes the store's sessions (and with --fixtures the files in DIR) over MCP on stdin/stdout (read-only).")
        exit(0)
    default: fail("unknown argument: \(arg) (\(usage))")
    }
}

let tools = AgentTools(storePath: storePath, unredacted: unredacted, fixtures: fixtures)

/// RouteLog's JSON value as MCP's.
func value(_ json: JSONValue) -> Value {
    switch json {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): Int(exactly: i).map { .int($0) } ?? .double(Double(i))
    case .double(let d): .double(d)
    case .string(let s): .string(s)
    case .array(let a): .array(a.map(value))
    case .object(let o): .object(o.mapValues(value))
    }
}

/// MCP's JSON value (a tool call's arguments) as RouteLog's.
func json(_ value: Value) -> JSONValue {
    switch value {
    case .null: .null
    case .bool(let b): .bool(b)
    case .int(let i): .int(Int64(i))
    case .double(let d): .double(d)
    case .string(let s): .string(s)
    case .data(_, let d): .string(d.base64EncodedString())
    case .array(let a): .array(a.map(json))
    case .object(let o): .object(o.mapValues(json))
    }
}

let toolList: [Tool] = AgentTools.tools.map { spec in
    Tool(
        name: spec.name, title: spec.title, description: spec.description, inputSchema: value(spec.input),
        annotations: Tool.Annotations(title: spec.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
        outputSchema: value(spec.output)
    )
}

let server = Server(
    name: "routelog", version: "0.1.0", title: "RouteLog",
    instructions: "Read-only access to RouteLog navigation sessions: events, states, diffs, blame, lifetimes, bisect, minimize, verify, export.",
    capabilities: .init(prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false))
)

await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: toolList) }
await server.withMethodHandler(CallTool.self) { params in
    var arguments: [String: JSONValue] = [:]
    for (k, v) in params.arguments ?? [:] { arguments[k] = json(v) }
    let answer = await tools.call(params.name, arguments)
    if let error = answer.error {
        return CallTool.Result(content: [.text(text: error, annotations: nil, _meta: nil)], isError: true)
    }
    return CallTool.Result(content: [.text(text: answer.text, annotations: nil, _meta: nil)], structuredContent: Optional<Value>.some(value(answer.structured)), isError: false)
}
await server.withMethodHandler(ListResources.self) { _ in
    ListResources.Result(resources: [Resource(name: "sessions", uri: "routelog://sessions", description: "The store's sessions", mimeType: "application/json")])
}
await server.withMethodHandler(ListResourceTemplates.self) { _ in
    ListResourceTemplates.Result(templates: AgentTools.resourceTemplates.map {
        Resource.Template(uriTemplate: $0.uri, name: $0.name, description: $0.description, mimeType: "application/json")
    })
}
await server.withMethodHandler(ReadResource.self) { params in
    let answer = await tools.read(uri: params.uri)
    if let error = answer.error { throw MCPError.invalidParams(error) }
    return ReadResource.Result(contents: [.text(answer.text, uri: params.uri, mimeType: "application/json")])
}
await server.withMethodHandler(ListPrompts.self) { _ in
    ListPrompts.Result(prompts: AgentTools.prompts.map { p in
        Prompt(name: p.name, description: p.description, arguments: p.arguments.map { Prompt.Argument(name: $0.name, description: $0.description, required: $0.required) })
    })
}
await server.withMethodHandler(GetPrompt.self) { params in
    switch AgentTools.prompt(params.name, params.arguments ?? [:]) {
    case .success(let text): return GetPrompt.Result(description: nil, messages: [.user(.text(text: text))])
    case .failure(let e): throw MCPError.invalidParams(e.message)
    }
}

do {
    try await server.start(transport: LineTransport())
    await server.waitUntilCompleted()
} catch {
    fail("\(error)")
}
