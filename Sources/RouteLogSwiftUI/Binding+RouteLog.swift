#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

// Thin SwiftUI wrappers over the bindings of `RouteLog`. All behaviour (what a write records,
// stale late writes, non-dismissible presentations) lives in the tested core; this file only
// turns get/set pairs into `Binding`s.

extension PathBinding {
    /// A `Binding` for `NavigationStack(path:)`.
    @MainActor public var binding: Binding<[Route]> {
        let b = self
        return .onMainActor(get: { b.get() }, set: { _ = b.set($0) })
    }
}

extension PresentationBinding {
    /// A `Binding` for `sheet(item:)`, `fullScreenCover(item:)` and `popover(item:)`.
    @MainActor public var binding: Binding<Route?> {
        let b = self
        return .onMainActor(get: { b.get() }, set: { _ = b.set($0) })
    }

    /// A `Binding<Bool>` for `alert(_:isPresented:presenting:)` and `confirmationDialog`.
    @MainActor public var isPresentedBinding: Binding<Bool> {
        let b = self
        return .onMainActor(get: { b.isPresented() }, set: { _ = b.setPresented($0) })
    }
}

extension TabBinding {
    /// A `Binding` for `TabView(selection:)`.
    @MainActor public var binding: Binding<String> {
        let b = self
        return .onMainActor(get: { b.get() }, set: { _ = b.set($0) })
    }
}

extension Binding {
    /// A binding whose reads and writes run on the main actor, where SwiftUI calls them.
    @MainActor
    static func onMainActor(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) -> Binding {
        Binding(get: { MainActor.assumeIsolated { get() } },
                set: { value in MainActor.assumeIsolated { set(value) } })
    }
}
#endif
