/// Folders that hold one disc of an album: `CD1`, `CD 2`, `Disc 1`, `disc02`, `Disk-3`.
/// Their tracks belong to the album of the folder above.
enum DiscFolder {
    /// The disc number a folder's name gives, or `nil` when it is not a disc folder.
    static func number(_ name: some Collection<UInt8>) -> Int? {
        let text = String(decoding: name, as: UTF8.self).lowercased()
        guard let prefix = ["cd", "disc", "disk"].first(where: { text.hasPrefix($0) }) else { return nil }
        let rest = text.dropFirst(prefix.count).drop { " -_.".contains($0) }
        guard (1...3).contains(rest.count), rest.allSatisfy(\.isASCII), let number = Int(rest), number > 0 else { return nil }
        return number
    }
}
