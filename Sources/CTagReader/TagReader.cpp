// albumstore_read_tags over TagLib's C++ API (see include/CTagReader.h).
//
// Tags come from TagLib's unified PropertyMap (`File::properties()`), which maps ID3v1/ID3v2,
// Vorbis comments (FLAC, Ogg Vorbis, Opus), MP4 atoms and the ID3 chunks of WAV and AIFF onto
// the same keys; pictures, which the PropertyMap of TagLib 1.x does not carry, come from each
// format's own API. No global mutable state: every call works on its own stream and File, so
// calls on different files may run at once on different threads.

#include "CTagReader.h"

#include <taglib/aifffile.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/audioproperties.h>
#include <taglib/fileref.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/id3v2frame.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mp4item.h>
#include <taglib/mp4tag.h>
#include <taglib/mpegfile.h>
#include <taglib/tbytevector.h>
#include <taglib/tfile.h>
#include <taglib/tfilestream.h>
#include <taglib/tpropertymap.h>
#include <taglib/tstring.h>
#include <taglib/tstringlist.h>
#include <taglib/wavfile.h>
#include <taglib/xiphcomment.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace {

/// The reason written for a file TagLib does not recognise or finds invalid.
constexpr const char *notAudio = "not an audio file TagLib can read";

/// Thrown inside `read` to end it with a reason; caught at the C boundary.
struct Failure {
    const char *reason;
};

void writeReason(char *reason, size_t reasonSize, const char *text) {
    if (reason == nullptr || reasonSize == 0) return;
    std::snprintf(reason, reasonSize, "%s", text);
}

/// Why `open` failed, without strerror (not thread-safe) or strerror_r (two incompatible
/// variants); lower case like every reason.
const char *openFailure(int error) {
    switch (error) {
    case EACCES:
    case EPERM: return "cannot be read: permission denied";
    case ENOENT: return "cannot be opened: no such file";
    case ENOTDIR: return "cannot be opened: a component of the path is not a directory";
    case ENAMETOOLONG: return "cannot be opened: the path is too long";
    case ELOOP: return "cannot be opened: too many symbolic links";
    case EMFILE:
    case ENFILE: return "cannot be opened: too many open files";
    case ENOMEM: return "cannot be opened: out of memory";
    case EIO: return "cannot be read: input/output error";
    default: return "cannot be opened";
    }
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/// The UTF-8 of `value`, cut at a NUL (a C string cannot hold one) and trimmed of ASCII
/// white space.
std::string utf8Trimmed(const TagLib::String &value) {
    std::string text = value.to8Bit(true);
    const size_t nul = text.find('\0');
    if (nul != std::string::npos) text.erase(nul);
    size_t begin = 0;
    size_t end = text.size();
    while (begin < end && isSpace(text[begin])) ++begin;
    while (end > begin && isSpace(text[end - 1])) --end;
    return text.substr(begin, end - begin);
}

/// The first non-empty (trimmed) value of `key`, else the empty string.
std::string firstValue(const TagLib::PropertyMap &properties, const char *key) {
    const TagLib::PropertyMap::ConstIterator found = properties.find(key);
    if (found == properties.end()) return std::string();
    for (TagLib::StringList::ConstIterator it = found->second.begin(); it != found->second.end(); ++it) {
        std::string text = utf8Trimmed(*it);
        if (!text.empty()) return text;
    }
    return std::string();
}

/// The first non-empty value of `key`, else that of `alternative`.
std::string firstValue(const TagLib::PropertyMap &properties, const char *key, const char *alternative) {
    std::string text = firstValue(properties, key);
    return text.empty() ? firstValue(properties, alternative) : text;
}

/// A malloc'ed copy of `text`, NULL when it is empty.
char *copyString(const std::string &text) {
    if (text.empty()) return nullptr;
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy == nullptr) throw std::bad_alloc();
    std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

/// The number `text` starts with at `position` (after white space and a '+'), clamped to
/// INT_MAX; 0 when there are no digits. `position` moves past what was read.
int leadingNumber(const std::string &text, size_t &position) {
    while (position < text.size() && isSpace(text[position])) ++position;
    if (position < text.size() && text[position] == '+') ++position;
    long long value = 0;
    while (position < text.size() && text[position] >= '0' && text[position] <= '9') {
        if (value < INT_MAX) value = value * 10 + (text[position] - '0');
        ++position;
    }
    return value > INT_MAX ? INT_MAX : static_cast<int>(value);
}

/// "3/12" -> 3 and 12; "3" -> 3 and 0; "" -> 0 and 0.
void numberPair(const std::string &text, int &number, int &total) {
    size_t position = 0;
    number = leadingNumber(text, position);
    total = 0;
    while (position < text.size() && isSpace(text[position])) ++position;
    if (position < text.size() && text[position] == '/') {
        ++position;
        total = leadingNumber(text, position);
    }
}

int number(const std::string &text) {
    size_t position = 0;
    return leadingNumber(text, position);
}

/// The first run of four digits in a date ("1999-05-01", "1999", "05/01/1999"), 0 when none.
/// A longer run ("19990501") gives its first four.
int yearOf(const std::string &date) {
    size_t i = 0;
    while (i < date.size()) {
        if (date[i] < '0' || date[i] > '9') {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < date.size() && date[end] >= '0' && date[end] <= '9') ++end;
        if (end - i >= 4)
            return (date[i] - '0') * 1000 + (date[i + 1] - '0') * 100 + (date[i + 2] - '0') * 10 + (date[i + 3] - '0');
        i = end;
    }
    return 0;
}

/// TCMP/cpil/COMPILATION: "1" (TagLib's mapping of MP4 cpil too), any positive number,
/// "true" or "yes".
int isCompilation(const std::string &text) {
    if (number(text) > 0) return 1;
    std::string lower;
    for (char c : text) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return lower == "true" || lower == "yes" ? 1 : 0;
}

/// The picture chosen so far: the first front cover, else the first picture.
struct PictureChoice {
    TagLib::ByteVector data;
    bool found = false;
    bool front = false;

    /// Offers one picture; returns true once a front cover is chosen (nothing better follows).
    bool offer(const TagLib::ByteVector &bytes, bool isFront) {
        if (isFront && !front) {
            data = bytes;
            found = true;
            front = true;
        } else if (!found) {
            data = bytes;
            found = true;
        }
        return front;
    }
};

void offerID3v2(PictureChoice &choice, const TagLib::ID3v2::Tag *tag) {
    if (tag == nullptr) return;
    const TagLib::ID3v2::FrameList &frames = tag->frameList("APIC");
    for (TagLib::ID3v2::FrameList::ConstIterator it = frames.begin(); it != frames.end(); ++it) {
        const auto *frame = dynamic_cast<const TagLib::ID3v2::AttachedPictureFrame *>(*it);
        if (frame == nullptr) continue;
        if (choice.offer(frame->picture(), frame->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover))
            return;
    }
}

void offerFLAC(PictureChoice &choice, const TagLib::List<TagLib::FLAC::Picture *> &pictures) {
    for (TagLib::List<TagLib::FLAC::Picture *>::ConstIterator it = pictures.begin(); it != pictures.end(); ++it) {
        if (*it == nullptr) continue;
        if (choice.offer((*it)->data(), (*it)->type() == TagLib::FLAC::Picture::FrontCover)) return;
    }
}

/// Each format's own pictures (TagLib 1.x has no complexProperties("PICTURE")).
PictureChoice findPicture(TagLib::File *file) {
    PictureChoice choice;
    if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
        if (mpeg->hasID3v2Tag()) offerID3v2(choice, mpeg->ID3v2Tag());
    } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
        offerFLAC(choice, flac->pictureList());
        // METADATA_BLOCK_PICTURE in the Vorbis comment, or an ID3v2 tag, both rare in FLAC.
        if (!choice.front && flac->hasXiphComment()) offerFLAC(choice, flac->xiphComment()->pictureList());
        if (!choice.front && flac->hasID3v2Tag()) offerID3v2(choice, flac->ID3v2Tag());
    } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
        // MP4 cover art has no picture type: the first one.
        const TagLib::MP4::Tag *tag = mp4->tag();
        if (tag != nullptr && tag->contains("covr")) {
            const TagLib::MP4::CoverArtList covers = tag->item("covr").toCoverArtList();
            if (!covers.isEmpty()) choice.offer(covers.front().data(), false);
        }
    } else if (auto *wav = dynamic_cast<TagLib::RIFF::WAV::File *>(file)) {
        if (wav->hasID3v2Tag()) offerID3v2(choice, wav->ID3v2Tag());
    } else if (auto *aiff = dynamic_cast<TagLib::RIFF::AIFF::File *>(file)) {
        if (aiff->hasID3v2Tag()) offerID3v2(choice, aiff->tag());
    } else if (auto *xiph = dynamic_cast<TagLib::Ogg::XiphComment *>(file->tag())) {
        // Ogg Vorbis, Opus, Speex and Ogg FLAC: METADATA_BLOCK_PICTURE.
        offerFLAC(choice, xiph->pictureList());
    }
    return choice;
}

/// What the PropertyMap left out but `File::tag()` has. In TagLib 1.x the PropertyMap of a file
/// with several tags (MP3: ID3v2, APE, ID3v1; WAV: ID3v2, RIFF INFO; FLAC: Vorbis comment,
/// ID3v2, ID3v1) is that of the first non-empty tag alone, and an ID3v2 tag holding only
/// ffmpeg's TSSE counts as non-empty, hiding an ID3v1 tag; `tag()` takes each of its basic
/// fields from the first tag that has it.
void fillFromBasicTag(const TagLib::Tag *tag, albumstore_tags *tags) {
    if (tag == nullptr) return;
    if (tags->album == nullptr) tags->album = copyString(utf8Trimmed(tag->album()));
    if (tags->artist == nullptr) tags->artist = copyString(utf8Trimmed(tag->artist()));
    if (tags->title == nullptr) tags->title = copyString(utf8Trimmed(tag->title()));
    if (tags->genre == nullptr) tags->genre = copyString(utf8Trimmed(tag->genre()));
    if (tags->year == 0 && tag->year() <= 9999) tags->year = static_cast<int>(tag->year());
    if (tags->track == 0 && tag->track() <= INT_MAX) tags->track = static_cast<int>(tag->track());
}

/// The original year of an MP4 file: TagLib 1.13 maps no MP4 item to ORIGINALDATE; taggers
/// write it as the freeform ----:com.apple.iTunes:ORIGINALDATE (MusicBrainz Picard) or
/// ...:originaldate, some as ...:ORIGINALYEAR.
int mp4OriginalYear(const TagLib::MP4::Tag *tag) {
    if (tag == nullptr) return 0;
    int fromYear = 0;
    const TagLib::MP4::ItemMap &items = tag->itemMap();
    for (TagLib::MP4::ItemMap::ConstIterator it = items.begin(); it != items.end(); ++it) {
        const TagLib::String name = it->first.upper();
        const bool isDate = name == "----:COM.APPLE.ITUNES:ORIGINALDATE";
        if (!isDate && name != "----:COM.APPLE.ITUNES:ORIGINALYEAR") continue;
        const TagLib::StringList values = it->second.toStringList();
        for (TagLib::StringList::ConstIterator value = values.begin(); value != values.end(); ++value) {
            const int year = yearOf(utf8Trimmed(*value));
            if (year == 0) continue;
            if (isDate) return year;
            if (fromYear == 0) fromYear = year;
            break;
        }
    }
    return fromYear;
}

/// A read-only FileStream (FileRef's own would try to open the file for writing first) that
/// can hide its name, so that FileRef recognises the format by the content alone.
class Stream final : public TagLib::FileStream {
public:
    explicit Stream(const char *path) : TagLib::FileStream(path, true) {}

    TagLib::FileName name() const override { return byContent ? "" : TagLib::FileStream::name(); }

    bool byContent = false;
};

/// The file, its format chosen by the name's extension first (TagLib's order), or by the
/// content alone. Fast: every format here takes its length from its headers (a Xing/VBRI header
/// or else the first frame's bit rate for MP3, STREAMINFO, mdhd, the last Ogg page, the data or
/// COMM chunk), which TagLib 1.13 reads the same way with Average and Accurate: the lengths of
/// MP3 (CBR, VBR, with and without a Xing header), FLAC, M4A, Ogg Vorbis, Opus, WAV and AIFF
/// came out identical in all three styles. (A VBR MP3 without a Xing/VBRI header gets a length
/// estimated from its first frame in every style.)
TagLib::FileRef openFile(Stream &stream, bool byContent) {
    stream.byContent = byContent;
    stream.seek(0);
    return TagLib::FileRef(&stream, true, TagLib::AudioProperties::Fast);
}

/// A valid file with audio: an MPEG::File stays valid when it finds no MPEG frame at all, so
/// audio with neither a sample rate nor a length is no audio.
bool hasAudio(const TagLib::FileRef &ref) {
    if (ref.isNull()) return false;
    const TagLib::AudioProperties *audio = ref.file()->audioProperties();
    return audio != nullptr && (audio->sampleRate() > 0 || audio->lengthInMilliseconds() > 0);
}

void read(const char *path, size_t pictureLimit, albumstore_tags *tags) {
    // Readability first, for a precise reason (TagLib says only that it could not open it).
    // open(2) rather than fopen: O_NONBLOCK keeps a FIFO from blocking until a writer comes
    // (fstat then refuses it), O_CLOEXEC keeps the descriptor from a concurrent fork.
    {
        const int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (descriptor < 0) throw Failure{openFailure(errno)};
        struct stat status;
        const bool statted = fstat(descriptor, &status) == 0;
        close(descriptor);
        if (!statted) throw Failure{"cannot be read"};
        if (S_ISDIR(status.st_mode)) throw Failure{"is a directory"};
        if (!S_ISREG(status.st_mode)) throw Failure{"not a regular file"};
        if (status.st_size == 0) throw Failure{"empty file"};
    }

    Stream stream(path);
    if (!stream.isOpen()) throw Failure{"cannot be opened"};
    // The stream outlives every FileRef (declared first, destroyed last); FileRef does not own it.
    TagLib::FileRef ref = openFile(stream, false);
    const bool byName = hasAudio(ref);
    // Chosen by the name but not what the content is: TagLib opens anything named .mp3 as an
    // MPEG::File, which stays valid without a single MPEG frame (an M4A, FLAC or WAV named
    // .mp3, random bytes), and a WAV::File accepts an AIFF named .wav, without audio. Then
    // the content decides (TagLib's own detection, which checks each format's signature),
    // unless it finds nothing better.
    if (!byName || (dynamic_cast<TagLib::MPEG::File *>(ref.file()) != nullptr && !TagLib::MPEG::File::isSupported(&stream))) {
        ref = TagLib::FileRef();
        ref = openFile(stream, true);
        if (!hasAudio(ref) && byName) {
            ref = TagLib::FileRef();
            ref = openFile(stream, false);
        }
    }
    if (!hasAudio(ref)) throw Failure{notAudio};
    TagLib::File *file = ref.file();
    const TagLib::AudioProperties *audio = file->audioProperties();

    const TagLib::PropertyMap properties = file->properties();
    tags->album = copyString(firstValue(properties, "ALBUM"));
    tags->album_artist = copyString(firstValue(properties, "ALBUMARTIST"));
    tags->artist = copyString(firstValue(properties, "ARTIST"));
    tags->title = copyString(firstValue(properties, "TITLE"));
    tags->genre = copyString(firstValue(properties, "GENRE"));
    tags->year = yearOf(firstValue(properties, "DATE"));
    tags->original_year = yearOf(firstValue(properties, "ORIGINALDATE"));
    if (tags->original_year == 0) tags->original_year = yearOf(firstValue(properties, "ORIGINALYEAR"));
    numberPair(firstValue(properties, "TRACKNUMBER"), tags->track, tags->track_total);
    if (tags->track_total == 0) tags->track_total = number(firstValue(properties, "TRACKTOTAL", "TOTALTRACKS"));
    numberPair(firstValue(properties, "DISCNUMBER"), tags->disc, tags->disc_total);
    if (tags->disc_total == 0) tags->disc_total = number(firstValue(properties, "DISCTOTAL", "TOTALDISCS"));
    tags->compilation = isCompilation(firstValue(properties, "COMPILATION"));
    tags->musicbrainz_release_id = copyString(firstValue(properties, "MUSICBRAINZ_ALBUMID"));
    tags->musicbrainz_release_group_id = copyString(firstValue(properties, "MUSICBRAINZ_RELEASEGROUPID"));
    fillFromBasicTag(file->tag(), tags);
    if (tags->original_year == 0) {
        if (const auto *mp4 = dynamic_cast<const TagLib::MP4::File *>(file)) tags->original_year = mp4OriginalYear(mp4->tag());
    }

    const int length = audio->lengthInMilliseconds();
    tags->duration_ms = length > 0 ? length : 0;

    const PictureChoice picture = findPicture(file);
    if (picture.found && !picture.data.isEmpty()) {
        const size_t size = picture.data.size();
        tags->picture_size = size;
        if (size <= pictureLimit) {
            tags->picture = static_cast<unsigned char *>(std::malloc(size));
            if (tags->picture == nullptr) throw std::bad_alloc();
            std::memcpy(tags->picture, picture.data.data(), size);
        }
    }
}

} // namespace

extern "C" int albumstore_read_tags(const char *path, size_t picture_limit, albumstore_tags *tags,
                                    char *reason, size_t reason_size) {
    writeReason(reason, reason_size, "");
    if (tags == nullptr) {
        writeReason(reason, reason_size, "no result to fill");
        return 1;
    }
    std::memset(tags, 0, sizeof *tags);
    if (path == nullptr || path[0] == '\0') {
        writeReason(reason, reason_size, "cannot be opened: no path");
        return 1;
    }
    const char *failure = nullptr;
    try {
        read(path, picture_limit, tags);
    } catch (const Failure &error) {
        failure = error.reason;
    } catch (const std::bad_alloc &) {
        failure = "out of memory";
    } catch (...) {
        failure = "TagLib failed reading it";
    }
    if (failure == nullptr) return 0;
    albumstore_tags_free(tags);
    writeReason(reason, reason_size, failure);
    return 1;
}

extern "C" void albumstore_tags_free(albumstore_tags *tags) {
    if (tags == nullptr) return;
    std::free(tags->album);
    std::free(tags->album_artist);
    std::free(tags->artist);
    std::free(tags->title);
    std::free(tags->genre);
    std::free(tags->musicbrainz_release_id);
    std::free(tags->musicbrainz_release_group_id);
    std::free(tags->picture);
    std::memset(tags, 0, sizeof *tags);
}
