ProcessMain.run()
