import FoundationEssentials

/// What `CoverRepository.export` wrote.
public struct CoverExportReport: Sendable, Hashable {
    /// The files written, one per album with a cover, in list order.
    public var files: [URL] = []
    /// Albums asked for that have no cover.
    public var albumsWithoutCover: [Int64] = []
}

extension CoverRepository {
    /// Writes the covers of `albums` into `directory` (created if missing), each streamed into
    /// its own file named by `CoverFileName` (the album id, then a safe slug of artist and
    /// title). An existing file of that name is replaced whole; a symbolic link of that name is
    /// replaced too, never written through, so nothing is written outside `directory`.
    /// - Throws: `CoverError.file` when the folder or a file cannot be written.
    public func export(_ albums: [Album], to directory: URL) throws -> CoverExportReport {
        let folder: ExportFolder
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            folder = try ExportFolder(path: directory.path)
        } catch {
            throw CoverError.file(path: directory.path, reason: "cannot create the folder")
        }
        var report = CoverExportReport()
        for album in albums {
            guard let info = try info(albumID: album.id) else {
                report.albumsWithoutCover.append(album.id)
                continue
            }
            let name = CoverFileName.make(albumID: album.id, artist: album.artist, title: album.title, format: info.format)
            try folder.write(name: name) { sink in _ = try read(albumID: album.id) { chunk in try sink.write(chunk) } }
            report.files.append(directory.appendingPathComponent(name, isDirectory: false))
        }
        return report
    }

    /// Streams album `albumID`'s cover into the file at `url`, replacing it; returns the info,
    /// or `nil` (writing nothing) when the album has no cover. A symbolic link at `url` is
    /// refused (`CoverError.file`), never written through.
    @discardableResult
    public func write(albumID: Int64, to url: URL) throws -> CoverInfo? {
        guard try info(albumID: albumID) != nil else { return nil }
        let file: OpenFile
        do { file = try OpenFile.writing(url.path) } catch let failure as OpenFile.Failure where failure.refusal != nil {
            throw CoverError.file(path: url.path, reason: failure.description)
        } catch {
            throw CoverError.file(path: url.path, reason: "cannot be written")
        }
        let sink = file.sink()
        do {
            let info = try read(albumID: albumID) { chunk in try sink.write(chunk) }
            try sink.flush()
            return info
        } catch is ByteSinkError {
            throw CoverError.file(path: url.path, reason: "cannot be written")
        }
    }
}
