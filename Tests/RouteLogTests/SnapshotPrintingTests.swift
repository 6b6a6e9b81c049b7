@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// Snapshots print what their reader wrote: no storage (`_presented`), no module names.
struct SnapshotPrintingTests {
    let snapshot = NavigationSnapshot<PodRoute>(tabs: [
        TabScreen(id: "library", screen: Screen(path: [.show(name: "atp")], presented:
            Presented(token: 3, route: .player(episode: 7), style: .sheet, dismissible: false,
                      content: Screen(path: [.episode(id: 7)], presented: Presented(token: 5, route: .alert(message: "gone"), style: .alert))))),
        TabScreen(id: "search"),
    ], selectedTab: "library")

    @Test func descriptionIsCompactAndUnqualified() {
        let text = String(describing: snapshot)
        #expect(text == #"NavigationSnapshot(tabs: [TabScreen(library, Screen(path: [show(name: "atp")], presented: Presented(#3 sheet player(episode: 7), dismissible: false, content: Screen(path: [episode(id: 7)], presented: Presented(#5 alert alert(message: "gone")))))), TabScreen(search, Screen(path: []))], selectedTab: library)"#,
                "\(text)")
        let presented = snapshot.selectedScreen.presented!
        #expect(String(describing: presented).hasPrefix("Presented(#3 sheet player(episode: 7), dismissible: false"))
    }

    @Test func dumpAndMirrorsShowNoStorage() {
        var dumped = ""
        dump(snapshot, to: &dumped)
        #expect(!dumped.contains("_presented") && dumped.contains("presented"), "\(dumped)")
        let children = Mirror(reflecting: snapshot.selectedScreen).children.map(\.label)
        #expect(children == ["path", "presented"])
        for text in [String(describing: snapshot), String(reflecting: snapshot.selectedScreen.presented!)] {
            #expect(!text.contains("RouteLog.") && !text.contains("RouteLogCore.") && !text.contains("_presented"), "\(text)")
        }
    }
}
