import AlbumStore

/// Writes each album as a line of a template, as it comes.
final class TemplateWriter: AlbumWriter {
    private let template: AlbumTemplate
    private let sink: any ByteSink

    init(_ template: AlbumTemplate, to sink: any ByteSink) {
        self.template = template
        self.sink = sink
    }

    func write(_ album: Album, index: Int?) throws {
        try sink.write(template.render(album, index: index) + "\n")
    }

    func finish() throws {
        try sink.flush()
    }
}
