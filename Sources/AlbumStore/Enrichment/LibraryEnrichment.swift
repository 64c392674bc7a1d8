import FoundationEssentials
internal import AlbumSQLite

extension Library {
    /// Fills the empty fields of albums (year, genre, MusicBrainz id, cover) from MusicBrainz and
    /// the Cover Art Archive, as one undoable command and one change set.
    ///
    /// Each album is looked up by its MusicBrainz release id when its external id is one (one
    /// request), else by a release search on its title and artist (two: the search, then the
    /// chosen release's genres). A match needs `options.minimumScore`; releases of different
    /// release groups scoring as high are ambiguous and nothing is taken. Only empty fields are
    /// filled, unless `options.overwrite` names them; a value changed while the run went on is
    /// kept. A bad answer (malformed, wrong type, broken image, too slow) leaves its album as it
    /// was and the run goes on.
    ///
    /// Cancelling the task stops the run: what was found up to then is applied as its own
    /// command (a dry run changes nothing), and `interrupted` says so. A rerun goes on from there,
    /// since the albums filled no longer lack anything.
    ///
    /// - Parameters:
    ///   - query: The albums to look at; `nil`: every album. Albums with nothing to fill are skipped.
    ///   - options: Where to ask, what may be replaced, a dry run, progress, ...
    /// - Throws: `EnrichmentError.badURL` for a base URL that is not http or https; `StorageError`.
    public func enrich(matching query: AlbumQuery? = nil, options: EnrichOptions = EnrichOptions()) async throws -> EnrichSummary {
        try refuseIfReadOnly()
        var client = try MusicBrainzClient(options: options)
        let albums = try await enrichmentCandidates(query ?? .all, overwrite: options.overwrite)
        var summary = EnrichSummary()
        summary.dryRun = options.dryRun
        var requestsLeft = albums.reduce(0) { $0 + ($1.releaseID == nil ? 2 : 1) }
        func report(_ done: Int) {
            options.progress?(EnrichProgress(
                albumsDone: done, albumsTotal: albums.count, requests: client.musicBrainzRequests,
                remaining: options.effectiveInterval * requestsLeft))
        }
        report(0)
        for (done, candidate) in albums.enumerated() {
            if Task.isCancelled {
                summary.interrupted = true
                break
            }
            do {
                try await look(up: candidate, client: &client, options: options, into: &summary)
            } catch is CancellationError {
                summary.interrupted = true
                break
            } catch {
                summary.failures.append(.init(album: candidate.name, reason: "\(error)"))
            }
            summary.albumsLookedUp += 1
            requestsLeft -= candidate.releaseID == nil ? 2 : 1
            report(done + 1)
        }
        summary.musicBrainzRequests = client.musicBrainzRequests
        summary.coverRequests = client.coverRequests
        if !options.dryRun && !summary.proposals.isEmpty {
            let proposals = summary.proposals
            // In a task of its own: a cancelled run still applies what it found.
            summary.applied = try await Task { try await self.offCooperativeThreads { try self.applyEnrichment(proposals) } }.value
        }
        return summary
    }

    /// Applies proposals (from a dry run, reviewed) as one undoable command: each only while its
    /// field still holds the value it was proposed against. Returns those applied.
    @discardableResult
    public func applyEnrichment(_ proposals: [EnrichProposal]) throws -> [EnrichProposal] {
        guard !proposals.isEmpty else { return [] }
        try refuseInOpenTransaction("applying an enrichment is a command of its own")
        return try perform { command in
            openTransaction.begin(command)
            defer { openTransaction.end() }
            let images = CoverImageStore(connection: command.connection)
            var applied: [EnrichProposal] = []
            var enriched: [Album] = []
            var albumIDs: [Int64] = []
            for albumID in proposals.map(\.albumID) where !albumIDs.contains(albumID) { albumIDs.append(albumID) }
            for albumID in albumIDs {
                guard let album = try albums.album(id: albumID) else { continue }
                let appliedBefore = applied.count
                var draft = album.draft
                for proposal in proposals where proposal.albumID == albumID {
                    switch proposal.field {
                    case .year:
                        guard draft.year.map(String.init) == proposal.current, let year = Int(proposal.proposed) else { continue }
                        draft.year = year
                    case .genre:
                        guard draft.genre == proposal.current else { continue }
                        draft.genre = proposal.proposed
                    case .musicBrainzID:
                        guard draft.externalID == proposal.current,
                              try AlbumRepository.owner(ofExternalID: proposal.proposed, except: albumID, in: command.connection) == nil
                        else { continue }
                        draft.externalID = proposal.proposed
                    case .cover:
                        guard let image = proposal.image,
                              try images.hash(albumID: albumID)?.hex == proposal.current else { continue }
                        try images.add(image.source, scan: image.scan)
                        try images.link(albumID: albumID, to: image.scan.hash)
                    }
                    applied.append(proposal)
                }
                if draft != album.draft { try albums.update(id: albumID) { $0 = draft } }
                if applied.count > appliedBefore { enriched.append(album) }
            }
            // One album is named, as every command names it; more are counted.
            let what = enriched.count == 1 ? enriched[0].quoted : "\(enriched.count) albums"
            return (applied, "enrich \(what) from MusicBrainz")
        }
    }

    /// An album to look up, with what it has.
    private struct EnrichCandidate: Sendable {
        let album: Album
        let coverHash: String?
        /// Its external id, when that is a MusicBrainz release id.
        var releaseID: String? { album.externalID.flatMap { MusicBrainzID.isValid($0) ? $0.lowercased() : nil } }
        var name: EnrichSummary.AlbumName { .init(id: album.id, title: album.title, artist: album.artist) }

        /// Whether `field` may be set: it is empty, or may be replaced.
        func canFill(_ field: EnrichField, overwrite: Set<EnrichField>) -> Bool {
            if overwrite.contains(field) { return true }
            return switch field {
            case .year: album.year == nil
            case .genre: album.genre == nil
            case .musicBrainzID: album.externalID == nil
            case .cover: coverHash == nil
            }
        }
    }

    /// The albums `query` matches that have a field to fill, in list order.
    private func enrichmentCandidates(_ query: AlbumQuery, overwrite: Set<EnrichField>) async throws -> [EnrichCandidate] {
        let albums = try await offCooperativeThreads { [self] in
            var found: [Album] = []
            try self.albums.forEach(matching: query) { _, album in found.append(album) }
            return found
        }
        let covers = try await read { connection in
            var covers: [Int64: String] = [:]
            try connection.cachedStatement("SELECT album_id, sha256 FROM covers").forEach([]) { row in
                if let id = try row[0, as: Int64?.self], let hash = try row[1, as: Data?.self] {
                    covers[id] = ContentHash(bytes: hash).hex
                }
            }
            return covers
        }
        return albums.map { EnrichCandidate(album: $0, coverHash: covers[$0.id]) }
            .filter { candidate in EnrichField.allCases.contains { candidate.canFill($0, overwrite: overwrite) } }
    }

    /// Looks one album up and adds its proposals, or says why it has none.
    private func look(
        up candidate: EnrichCandidate, client: inout MusicBrainzClient, options: EnrichOptions, into summary: inout EnrichSummary
    ) async throws {
        let release: MusicBrainzRelease
        let score: Int
        if let id = candidate.releaseID {
            release = try await client.release(id)
            score = 100
        } else {
            let found = try await client.searchReleases(title: candidate.album.title, artist: candidate.album.artist)
                .filter { ($0.score ?? 0) >= options.minimumScore }
            guard let best = found.first else {
                summary.notFound.append(candidate.name)
                return
            }
            let top = found.filter { $0.score == best.score }
            let groups = Set(top.map { $0.releaseGroupID ?? $0.id })
            if groups.count > 1 {
                let names = top.prefix(3).map { "\"\($0.title)\" by \($0.artist) (\($0.id))" }.joined(separator: ", ")
                summary.ambiguous.append(.init(
                    album: candidate.name, reason: "\(groups.count) albums score \(best.score ?? 0): \(names)"))
                return
            }
            release = try await client.release(best.id)
            score = best.score ?? 0
        }
        let source = client.page(ofRelease: release.id)
        var proposals: [EnrichProposal] = []
        func propose(_ field: EnrichField, _ current: String?, _ value: String?, source: String = source, image: SpooledImage? = nil) {
            guard let value, value != current, candidate.canFill(field, overwrite: options.overwrite) else { return }
            proposals.append(EnrichProposal(
                albumID: candidate.album.id, albumTitle: candidate.album.title, albumArtist: candidate.album.artist,
                field: field, current: current, proposed: value, score: score, source: source, image: image))
        }
        let album = candidate.album
        propose(.year, album.year.map(String.init), release.year.map(String.init))
        propose(.genre, album.genre, release.genre)
        propose(.musicBrainzID, album.externalID, release.id)
        if candidate.canFill(.cover, overwrite: options.overwrite), release.hasFrontCover != false,
           let (image, url) = try await client.frontCover(ofRelease: release.id) {
            let header = image.scan.header
            let description = "\(header.format.name) \(header.width)x\(header.height), \(image.scan.byteCount) bytes"
            if image.scan.hash.hex != candidate.coverHash {
                propose(.cover, candidate.coverHash, description, source: url, image: image)
            }
        }
        summary.proposals += proposals
    }

}
