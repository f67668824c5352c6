// The `model` suite: ListModel build, diff, outline and selection figures (filled in by issue 2).
import ListModel

enum ModelBenchmarks {
  static func run(_ options: BenchOptions) {
    printHeading("ListModel", options)
  }
}
