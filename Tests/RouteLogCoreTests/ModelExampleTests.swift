import Testing
@_spi(Tools) import RouteLogCore

/// The model example of RouteLogCore's getting-started article ("The model"), kept honest: if the
/// model changes, this fails and the article is updated.
@Test func modelExampleOfTheCoreGuide() {
    var r = Replayer()
    let steps = [
        r.apply(.setTabs(["home", "library"])),
        r.apply(.push(RouteRef(id: "episode-42"))),
        r.apply(.show(RouteRef(id: "player"), style: .sheet)),
        r.apply(.push(RouteRef(id: "queue"))),
        r.apply(.show(RouteRef(id: "upsell"), style: .sheet, dismissible: false, placement: .onTop)),
        r.apply(.interactiveDismiss()),
        r.apply(.interactiveDismiss(token: 3)),
    ]
    #expect(steps.map(\.outcome.description) == [
        "applied", "applied", "applied", "applied", "applied", "rejected:notDismissible", "rejected:stale",
    ])
    #expect(r.state.json.prettyText == """
    {
      "selectedTab": "home",
      "tabs": [
        {
          "id": "home",
          "root": {
            "path": [
              {
                "id": "episode-42"
              }
            ],
            "presented": {
              "content": {
                "path": [
                  {
                    "id": "queue"
                  }
                ],
                "presented": {
                  "content": {
                    "path": [],
                    "presented": null
                  },
                  "dismissible": false,
                  "route": {
                    "id": "upsell"
                  },
                  "style": "sheet",
                  "token": 5
                }
              },
              "dismissible": true,
              "route": {
                "id": "player"
              },
              "style": "sheet",
              "token": 3
            }
          }
        },
        {
          "id": "library",
          "root": {
            "path": [],
            "presented": null
          }
        }
      ]
    }
    """)
    print(r.state.digest.short)
}
