print("routelog: not built yet")
