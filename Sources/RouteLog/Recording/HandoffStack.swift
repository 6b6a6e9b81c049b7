internal import Atomics

/// A lock-free stack that any thread pushes onto and one consumer takes whole: how the navigator's
/// calls hand events and screen records to the recorder's queue without taking a lock.
final class HandoffStack<Element>: @unchecked Sendable {
    final class Node: AtomicReference, @unchecked Sendable {
        let element: Element
        var next: Node?
        init(_ element: Element) { self.element = element }
    }

    /// The newest element first.
    private let top = ManagedAtomic<Node?>(nil)

    init() {}

    deinit {
        // Unlink iteratively: a long stack released node by node would recurse.
        var node = top.exchange(nil, ordering: .acquiring)
        while let n = node {
            node = n.next
            n.next = nil
        }
    }

    /// Pushes `element`: an allocation and a compare-and-exchange.
    func push(_ element: Element) {
        let node = Node(element)
        var current = top.load(ordering: .relaxed)
        while true {
            node.next = current
            let (exchanged, original) = top.weakCompareExchange(expected: current, desired: node, successOrdering: .releasing,
                                                                 failureOrdering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Takes everything pushed so far and appends it to `out`, oldest first, in one atomic
    /// exchange. Returns how many it took.
    @discardableResult
    func takeAll(appendingTo out: inout [Element]) -> Int {
        var node = top.exchange(nil, ordering: .acquiring)
        guard node != nil else { return 0 }
        var newestFirst: [Element] = []
        while let n = node {
            newestFirst.append(n.element)
            node = n.next
            n.next = nil
        }
        out.append(contentsOf: newestFirst.reversed())
        return newestFirst.count
    }
}
