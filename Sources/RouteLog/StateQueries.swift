import RouteLogCore

/// Read-only walks over a core state, as the navigator and its façades need them.
extension NavigationState {
    /// The presentations of the selected root's chain, bottom first.
    var presentationChain: [Presentation] {
        var out: [Presentation] = []
        var next = root.presented
        while let p = next {
            out.append(p)
            next = p.content?.presented
        }
        return out
    }

    /// The top-most presentation of the selected chain.
    var topMost: Presentation? { presentationChain.last }

    /// The frame events target when they name none: the content of the top-most presentation;
    /// the frame presenting it when it is an alert or dialog; the root when nothing is presented.
    var activeFrameRef: FrameRef {
        let chain = presentationChain
        guard let top = chain.last else { return .root }
        if !top.style.isLeaf { return .presentation(top.token) }
        return chain.count >= 2 ? .presentation(chain[chain.count - 2].token) : .root
    }

    /// The presentation with `token`, searching the selected tab first, then the others in order.
    func presentation(token: UInt64) -> Presentation? {
        var roots: [Frame] = [root]
        if let tabs { roots += tabs.filter { $0.id != selectedTab }.map(\.root) }
        for r in roots {
            var next = r.presented
            while let p = next {
                if p.token == token { return p }
                next = p.content?.presented
            }
        }
        return nil
    }

    /// The frame a reference names: the selected root, or the content of a presentation.
    /// `nil` when the token is unknown or names an alert or dialog (which have no frame).
    func frame(_ ref: FrameRef) -> Frame? {
        switch ref {
        case .root: root
        case .presentation(let token): presentation(token: token)?.content
        }
    }
}
