extension Array {
    /// `removeAll(keepingCapacity: true)` through `removeLast`, which the compiler specializes
    /// for the element type: the library's version goes through a generic `replaceSubrange`
    /// that destroyed an import's rows and values at several times the cost.
    mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
