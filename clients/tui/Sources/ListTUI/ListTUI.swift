// The terminal UI library (placeholder until the view state lands).
