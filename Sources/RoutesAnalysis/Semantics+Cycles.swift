import RoutesModel
import RoutesSyntax

extension Semantics {
    /// Builder cycles (`BuilderCycle`; docs/rules.md): evaluating a builder's
    /// body, over all elements of the graph and environments, reaches a reference to the
    /// builder again. Only builders on a cycle of the static reference graph can; for those,
    /// propagate the evaluation contexts exactly (anyOf masks, conditions, element tests,
    /// wildcards) through references. One cycle is reported per strongly connected component,
    /// with all its references.
    ///
    /// The elements are the graph's: a program's graph holds the screens of its files (a
    /// path of the program holds no other), so whether a builder of a program has a cycle
    /// does not depend on which unrelated programs share the workspace; a builder in files
    /// of several programs is checked in each (the session merges what they find).
    func findCycles() {
        let builderCount = graph.builders.count
        cyclic = Array(repeating: false, count: builderCount)
        for index in recursiveComponents {
            let component = components[index]
            var refs = Set<Int>()
            for builder in component {
                let found = cycleReferences(returningTo: builder)
                if !found.isEmpty {
                    cyclic[builder] = true
                    refs.formUnion(found)
                }
            }
            if !refs.isEmpty {
                cycles.append((refs.sorted { sourceOrder($0, $1) }, Array(component)))
            }
        }
    }

    /// Source order of two references (see `BuilderGraph.head(_:)`).
    func sourceOrder(_ a: Int, _ b: Int) -> Bool {
        (graph.nodes[a].file, graph.head(a).lowerBound) < (graph.nodes[b].file, graph.head(b).lowerBound)
    }

    /// The references on the ways by which evaluating `start` (with any element) reaches
    /// `start` again.
    func cycleReferences(returningTo start: Int) -> Set<Int> {
        guard let body = graph.builders[start].body else { return [] }
        var flow = Flow(semantics: self, crossNestings: false, storage: cycleStorage)
        // A reference inside an unresolved wildcard closes a cycle too: the cycle is reported
        // while the wildcard's name is misspelt, not only once it is mended.
        flow.entersHiddenNodes = true
        flow.add(body, allElements, from: nil)
        var entry: [Int: Int] = [:]  // builder → the reference that first entered it
        var closing: [Int] = []
        flow.onReference = { ref, target in
            if target == start {
                closing.append(ref)
                return false
            }
            if entry[target] == nil { entry[target] = ref }
            return true
        }
        flow.run()
        var result = Set<Int>()
        for ref in closing {
            result.insert(ref)
            var top = graph.bodyTop(ref)
            var steps = 0
            while let owner = bodyOwner(top), owner != start, let via = entry[owner], steps < graph.builders.count {
                result.insert(via)
                top = graph.bodyTop(via)
                steps += 1
            }
        }
        return result
    }
}
