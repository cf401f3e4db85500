print("openclaw-gateway-sim 0.1.0")
