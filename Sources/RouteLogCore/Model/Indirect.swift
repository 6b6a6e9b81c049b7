/// A copy-on-write box that gives a recursive struct its indirection.
@usableFromInline
struct Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline final class Box: @unchecked Sendable {
        // Only reached through `Indirect`, which copies the box before any write to a shared one,
        // so the runtime exclusivity check on every access is pure overhead.
        @exclusivity(unchecked) @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }
    @usableFromInline var box: Box

    @usableFromInline init(_ value: Value) { box = Box(value) }

    @inlinable var value: Value {
        get { box.value }
        set {
            if isKnownUniquelyReferenced(&box) { box.value = newValue } else { box = Box(newValue) }
        }
    }

    @inlinable mutating func modify<R>(_ body: (inout Value) -> R) -> R {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
        return body(&box.value)
    }

    @usableFromInline static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.value == b.box.value }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}
