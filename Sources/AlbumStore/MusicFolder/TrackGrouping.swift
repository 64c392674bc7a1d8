/// Groups a music folder's tracks into albums, as a collector expects (docs/cli.md, "Music
/// folders", lists the rules with examples):
///
/// - a MusicBrainz release id names an album wherever its tracks are;
/// - else the album artist and album title do (a compilation's album artist is "Various
///   Artists", by its flag or its tag), so discs in several folders are one album, and the same
///   title by two album artists is two;
/// - else, with no album artist, the album title within one album folder does: several track
///   artists make one album by "Various Artists", not one per artist;
/// - an album folder is the folder holding the track, or the one above a disc folder (`CD1`,
///   `Disc 2`), so discs in subfolders are one album; a track with no album tag takes its album
///   folder's name.
enum TrackGrouping {
    static let variousArtists = "Various Artists"
    static let unknownArtist = "Unknown Artist"

    /// The albums `files` make, in the order of their first track's path.
    static func group(_ files: [ScannedFile], images: [RawPath: [RawPath]]) -> [AlbumGroup] {
        var keys: [String] = []
        var members: [[Int]] = []
        var groupOfKey: [String: Int] = [:]
        var albumFolders: [RawPath] = []
        var discs: [Int] = []
        // Files come in path order, so a folder's tracks are consecutive: its album folder is
        // found once, and so is the key while consecutive tracks name the same album.
        var previousFolder: (folder: RawPath, albumFolder: RawPath, disc: Int?)?
        var previousKey: (fields: KeyFields, group: Int)?
        for (index, file) in files.enumerated() {
            let folder = file.path.folder
            if previousFolder?.folder != folder {
                let (albumFolder, disc) = Self.albumFolder(ofFolder: folder)
                previousFolder = (folder, albumFolder, disc)
            }
            let albumFolder = previousFolder!.albumFolder
            albumFolders.append(albumFolder)
            discs.append(file.tags.disc > 0 ? file.tags.disc : previousFolder!.disc ?? 0)
            let fields = KeyFields(tags: file.tags, albumFolder: albumFolder)
            let group: Int
            if let previousKey, previousKey.fields == fields {
                group = previousKey.group
            } else {
                let key = fields.key
                if let known = groupOfKey[key] {
                    group = known
                } else {
                    group = keys.count
                    groupOfKey[key] = group
                    keys.append(key)
                    members.append([])
                }
            }
            members[group].append(index)
            previousKey = (fields, group)
        }
        return zip(keys, members).map { key, indexes in
            album(of: indexes, key: key, files: files, albumFolders: albumFolders, discs: discs, images: images)
        }
    }

    /// The folder of the album a file belongs to, and the disc its folder names.
    static func albumFolder(of path: RawPath) -> (folder: RawPath, disc: Int?) {
        albumFolder(ofFolder: path.folder)
    }

    private static func albumFolder(ofFolder folder: RawPath) -> (folder: RawPath, disc: Int?) {
        if let disc = DiscFolder.number(folder.name) { return (folder.folder, disc) }
        return (folder, nil)
    }

    /// The text of the album artist that names the album, if any.
    private static func albumArtist(of tags: TrackTags) -> String? {
        tags.isCompilation ? variousArtists : tags.albumArtist
    }

    /// What of a track names its album: its key is made of these alone.
    private struct KeyFields: Equatable {
        var release: String?
        var album: String?
        var albumArtist: String?
        var albumFolder: RawPath

        init(tags: TrackTags, albumFolder: RawPath) {
            release = tags.musicBrainzReleaseID
            album = tags.album
            albumArtist = TrackGrouping.albumArtist(of: tags)
            self.albumFolder = albumFolder
        }

        var key: String {
            if let release { return "release\u{0}\(release)" }
            let title = FoldedText.fold(album ?? albumFolder.displayName)
            if let albumArtist { return "artist\u{0}\(FoldedText.fold(albumArtist))\u{0}\(title)" }
            return "folder\u{0}\(albumFolder.display)\u{0}\(title)"
        }
    }

    private static func album(
        of indexes: [Int], key: String, files: [ScannedFile], albumFolders: [RawPath], discs: [Int],
        images: [RawPath: [RawPath]]
    ) -> AlbumGroup {
        let tracks = indexes.sorted { a, b in
            (discs[a], files[a].tags.track, files[a].path) < (discs[b], files[b].tags.track, files[b].path)
        }
        let tags = tracks.map { files[$0].tags }
        let folders = Set(tracks.map { albumFolders[$0] })
        let folder = tracks.dropFirst().reduce(albumFolders[tracks[0]]) { $0.commonFolder(with: albumFolders[$1]) }
        let title = mostCommon(tags.compactMap(\.album)) ?? albumFolders[tracks[0]].displayName
        var reasons: [String] = []
        let artist: String
        let albumArtist = mostCommon(tags.compactMap(albumArtist(of:)))
        let trackArtists = distinctFolded(tags.compactMap(\.artist))
        if key.hasPrefix("release") {
            reasons.append("MusicBrainz release \(tags.compactMap(\.musicBrainzReleaseID).first ?? "")")
        }
        if let albumArtist {
            artist = albumArtist
            if tags.contains(where: \.isCompilation) {
                reasons.append("a compilation (its flag): \(variousArtists)")
            } else if FoldedText.fold(albumArtist) == FoldedText.fold(variousArtists) {
                reasons.append("a compilation (its album artist): \(variousArtists)")
            } else if !key.hasPrefix("release") {
                reasons.append("album artist and title")
            }
        } else if trackArtists.count > 1 {
            artist = variousArtists
            reasons.append("one title in one folder with \(trackArtists.count) track artists and no album artist: \(variousArtists)")
        } else if let only = mostCommon(tags.compactMap(\.artist)) {
            artist = only
            reasons.append("title in one folder, no album artist: the track artist")
        } else {
            artist = unknownArtist
        }
        let untagged = tags.filter(\.isUntagged).count
        if tags.contains(where: { $0.album == nil }) {
            reasons.append(untagged == tags.count ? "no tags: named after its folder" : "no album tag: named after its folder")
        }
        let discNumbers = Set(tracks.map { discs[$0] }.filter { $0 > 0 })
        let discCount = max(discNumbers.count, tags.map(\.discTotal).max() ?? 0, 1)
        if discNumbers.count > 1 {
            let discFolders = Set(tracks.compactMap { DiscFolder.number(files[$0].path.folder.name) != nil ? files[$0].path.folder : nil })
            reasons.append(discFolders.count > 1
                ? "\(discNumbers.count) discs in subfolders \(discFolders.sorted().map(\.displayName).joined(separator: ", "))"
                : "\(discNumbers.count) discs by their disc tags")
        }
        if folders.count > 1 && discNumbers.count <= 1 { reasons.append("tracks in \(folders.count) folders") }
        return AlbumGroup(
            files: tracks, title: title, artist: artist,
            genre: mostCommon(tags.compactMap(\.genre)),
            year: mostCommon(tags.compactMap(\.releaseYear)),
            discCount: discCount,
            durationMS: tags.reduce(0) { $0 + $1.durationMS },
            musicBrainzReleaseID: mostCommon(tags.compactMap(\.musicBrainzReleaseID)),
            musicBrainzReleaseGroupID: mostCommon(tags.compactMap(\.musicBrainzReleaseGroupID)),
            folder: folder, grouping: reasons.joined(separator: "; "),
            cover: cover(of: tracks, files: files, folders: folders, images: images),
            untaggedCount: untagged)
    }

    /// The most common embedded picture, else the best-named image in the album's folders.
    private static func cover(
        of tracks: [Int], files: [ScannedFile], folders: Set<RawPath>, images: [RawPath: [RawPath]]
    ) -> AlbumGroup.Cover? {
        if let hash = mostCommon(tracks.compactMap { files[$0].pictureHash }),
           let file = tracks.first(where: { files[$0].pictureHash == hash }) {
            return .embedded(hash, file: file)
        }
        // The album folders and the disc folders in them.
        let places = folders.union(tracks.map { files[$0].path.folder })
        let candidates = places.flatMap { images[$0] ?? [] }
        return candidates.min { a, b in
            (FolderWalk.coverIndex(a) ?? .max, a.bytes.count, a) < (FolderWalk.coverIndex(b) ?? .max, b.bytes.count, b)
        }.map(AlbumGroup.Cover.folderImage)
    }

    /// The value met most often; the first met among equals.
    static func mostCommon<T: Hashable>(_ values: [T]) -> T? {
        if agree(values) { return values.first }
        var counts: [T: Int] = Dictionary(minimumCapacity: values.count)
        var best: T?
        for value in values {
            counts[value, default: 0] += 1
            if best == nil || counts[value]! > counts[best!]! { best = value }
        }
        return best
    }

    private static func distinctFolded(_ values: [String]) -> Set<String> {
        Set((agree(values) ? Array(values.prefix(1)) : values).map(FoldedText.fold))
    }

    /// Whether the values are all equal (or none): an album's tracks nearly always agree, and
    /// then there is nothing to count or fold twice.
    private static func agree<T: Equatable>(_ values: [T]) -> Bool {
        values.allSatisfy { $0 == values[0] }
    }
}
