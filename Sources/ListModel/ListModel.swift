// ListModel: pure value types for live list data sources (filled in by issue 2).
