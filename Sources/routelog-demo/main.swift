print("routelog-demo: not built yet")
