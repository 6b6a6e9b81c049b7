#if canImport(SwiftUI)
import Foundation
import RouteLog
import RouteLogCore
import SwiftUI

/// An app's root view on the screens a fixture ends on, for an Xcode preview: the screen a crash
/// happened on (`routelog repro` writes its fixture), or any recorded session, opens in the canvas.
///
/// ```swift
/// #Preview("Crashed run 3") {
///     RouteLogPreview(fixture: "crashed-run-3-01a2f3b4", as: AppRoute.self) { navigator in
///         RootView(navigator: navigator)
///     }
/// }
/// ```
///
/// The navigator holds the fixture's events in an in-memory log (see
/// ``RouteLog/Navigator/init(fixture:migrate:)``): calls in the preview work and record nothing.
/// A fixture that cannot be read shows its error instead of the view.
@MainActor
public struct RouteLogPreview<Route: Routable, Content: View>: View {
    private let navigator: Result<Navigator<Route>, any Error>
    private let content: (Navigator<Route>) -> Content

    /// A preview of `fixture`.
    public init(fixture: Fixture, as type: Route.Type = Route.self, migrate: ((RecordedRoute) throws -> Route?)? = nil,
                @ViewBuilder content: @escaping (Navigator<Route>) -> Content) {
        navigator = Result { try Navigator<Route>(fixture: fixture, migrate: migrate) }
        self.content = content
    }

    /// A preview of the fixture file at `url`.
    public init(fixture url: URL, as type: Route.Type = Route.self, migrate: ((RecordedRoute) throws -> Route?)? = nil,
                @ViewBuilder content: @escaping (Navigator<Route>) -> Content) {
        navigator = Result { try Navigator<Route>(fixture: try Fixture(contentsOf: url.path), migrate: migrate) }
        self.content = content
    }

    /// A preview of the fixture `name`.json in `bundle` (the app's, or a preview-content one).
    public init(fixture name: String, bundle: Bundle = .main, as type: Route.Type = Route.self,
                migrate: ((RecordedRoute) throws -> Route?)? = nil, @ViewBuilder content: @escaping (Navigator<Route>) -> Content) {
        if let url = bundle.url(forResource: name, withExtension: "json") {
            navigator = Result { try Navigator<Route>(fixture: try Fixture(contentsOf: url.path), migrate: migrate) }
        } else {
            navigator = .failure(FixtureError(file: "\(name).json", problem: .unreadable("no such resource in \(bundle.bundlePath)")))
        }
        self.content = content
    }

    public var body: some View {
        switch navigator {
        case .success(let navigator):
            content(navigator)
        case .failure(let error):
            Text("RouteLogPreview: \(String(describing: error))").font(.caption).padding()
        }
    }
}
#endif
