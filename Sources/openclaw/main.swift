print("openclaw 0.1.0")
