// listd-tui entry point (placeholder).
print("listd-tui")
