#ifndef ALBUMSTORE_CTAGREADER_H
#define ALBUMSTORE_CTAGREADER_H

// A C interface over TagLib's C++ API: the tags, audio length and front cover of one audio file.
// TagLib's own C API lacks album artist, disc numbers, MusicBrainz ids and pictures.
// Implemented in TagReader.cpp (link with -ltag); read for MP3 (ID3v1, ID3v2.2/2.3/2.4), FLAC,
// M4A (AAC, ALAC), Ogg Vorbis, Opus, and WAV and AIFF with an ID3 chunk. The format comes from
// the name's extension and, when that yields no audio (an M4A named .mp3), from the content.
//
// Thread safety: no global mutable state; calls on different files may run at once from
// different threads.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What one file's tags say. Strings are UTF-8, NUL-terminated, trimmed of ASCII white space,
/// owned by the struct (NULL when absent, empty or all white space); the first non-empty value
/// when a tag has several (ID3v2.4 and Vorbis comments allow that). Numbers are 0 when absent.
/// Free with `albumstore_tags_free`.
typedef struct albumstore_tags {
    char *album;
    char *album_artist;
    char *artist;
    char *title;
    char *genre;
    /// The year of the date tag (ID3 TDRC/TYER, Vorbis DATE, MP4 ©day), 0 when absent: the
    /// first run of four digits ("1999-05-01" -> 1999).
    int year;
    /// The year of the original release (ID3 TDOR/TORY, ORIGINALDATE/ORIGINALYEAR, MP4 freeform
    /// ----:com.apple.iTunes:ORIGINALDATE/ORIGINALYEAR), 0 when absent.
    int original_year;
    /// TRCK/TRACKNUMBER/trkn "3/12" -> 3 and 12; the total else from TRACKTOTAL/TOTALTRACKS.
    int track;
    int track_total;
    /// TPOS/DISCNUMBER/disk "1/2" -> 1 and 2; the total else from DISCTOTAL/TOTALDISCS.
    int disc;
    int disc_total;
    /// 1: tagged as a compilation (TCMP, cpil, COMPILATION); 0: not, or absent.
    int compilation;
    /// MUSICBRAINZ_ALBUMID (ID3 TXXX "MusicBrainz Album Id", MP4 ----:com.apple.iTunes:...).
    char *musicbrainz_release_id;
    /// MUSICBRAINZ_RELEASEGROUPID (ID3 TXXX "MusicBrainz Release Group Id", ...).
    char *musicbrainz_release_group_id;
    /// The audio's length in milliseconds, 0 when unknown: TagLib's, from the headers (an MP3
    /// without a Xing/VBRI header: estimated from the first frame's bit rate, wrong for VBR).
    int64_t duration_ms;
    /// The front cover (else the first picture; MP4 covr has no types: its first): its bytes,
    /// malloc'ed, or NULL when there is none or it is larger than the limit given to
    /// `albumstore_read_tags` (then `picture_size` still says its size).
    unsigned char *picture;
    size_t picture_size;
} albumstore_tags;

/// Reads the file at `path` (bytes, as the file system names it).
///
/// Returns 0 and fills `tags` (zeroed first) on success; otherwise returns non-zero, leaves
/// `tags` empty, and writes a short lower-case reason into `reason` (NUL-terminated, at most
/// `reason_size` bytes; nothing when `reason` is NULL): "cannot be opened: no such file",
/// "cannot be read: permission denied", "is a directory", "not a regular file", "empty file",
/// "not an audio file TagLib can read" (unknown format, TagLib's isValid() false, or no audio
/// found), "out of memory". Never throws; blocks on nothing but file reads (a FIFO is refused).
int albumstore_read_tags(const char *path, size_t picture_limit, albumstore_tags *tags,
                         char *reason, size_t reason_size);

/// Frees what `albumstore_read_tags` allocated and zeroes the struct.
void albumstore_tags_free(albumstore_tags *tags);

#ifdef __cplusplus
}
#endif

#endif
