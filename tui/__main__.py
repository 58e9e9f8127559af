from tui.entry import run

run()
