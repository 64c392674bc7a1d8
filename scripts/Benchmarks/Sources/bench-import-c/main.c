// scripts/bench-import's contender (a): the fastest C we could write that leaves a library in the
// same state as `albumstore import FILE.csv` on an empty library made by `albumstore init`.
//
// Usage: bench-import-c DB FILE.csv|FILE.ndjson   (prints "c: inserted N albums ..." on stderr, exit 0)
//
// FILE.ndjson (or .jsonl): one flat JSON object a line, parsed in place the same way (a string
// with escapes unescaped into the scratch buffer; null is SQL NULL; a number kept as its text).
//
// The same end state, as AlbumRepository.append(contentsOf:) and Library.performAppend write it:
// - one BEGIN IMMEDIATE transaction that sets change_control.bulk = 1 so
//   the change-log trigger logs nothing per row, inserts the albums, sets bulk back to 0, and
//   writes one change_log range entry (row_id...last_row_id, numbered one past the newest
//   entry) and one history entry whose
//   appended_ids are "first-last" and whose changeset is empty;
// - positions a gap (2^32) apart after the last one: 0, 2^32, 2 * 2^32, ... on an empty library;
// - created_at = updated_at = now in milliseconds since 1970;
// - an empty cell is NULL, year an integer, external ids text as written (leading zeros kept);
// - match_key (migration 0005, when the library has the column): the Int64 bit pattern of
//   FNV-1a 64 over UTF-8 fold(artist) + 0x1F + fold(title), fold = Unicode lowercase, NFD, drop
//   nonspacing marks, white space runs to one space, trimmed. Folded here for ASCII and the
//   Latin-1 Supplement (U+0080...U+00FF), the letters scripts/examples/generate-catalog uses;
//   any other character is hashed as it is (a real importer would need the Unicode tables).
//
// What makes it fast, each measured on 1,000,000 rows (scripts/bench-import):
// - the file is mapped and parsed in place (RFC 4180: quoted fields, doubled quotes, CR LF or
//   LF, a BOM, blank lines); a field is bound SQLITE_STATIC from the mapping, a quoted field with
//   doubled quotes from a copy kept until its statement has run;
// - ROWS_PER_INSERT rows a statement (one prepared statement per size), so a statement's fixed
//   costs (its statement journal, the trigger program's WHEN test) are paid once per batch;
// - on an empty table, the secondary indexes are dropped inside the transaction and created again
//   from their own SQL (sqlite_schema) after the rows: SQLite builds an index from a sort, where
//   keeping it row by row touches random pages (match_key, external_id and artist are in random
//   order); `--keep-indexes` keeps them instead, for comparison;
// - the triggers on albums are dropped inside the transaction and created again from their own
//   SQL before the commit (`--keep-triggers` keeps them): with change_control.bulk = 1 the
//   change-log trigger writes nothing, but SQLite still runs its WHEN subquery for every row,
//   about 0.6 s of 4.5 s for 1,000,000 rows. No other connection can see the schema between the
//   two, and the change-log and history entries are written as the bulk append writes them.
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum { ROWS_PER_INSERT = 64 };
static const int64_t POSITION_GAP = (int64_t)1 << 32;

enum column { TITLE, ARTIST, GENRE, YEAR, COVER_URL, EXTERNAL_ID, COLUMNS };
static const char *const column_names[COLUMNS] = {"title", "artist", "genre", "year", "cover_url", "external_id"};

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("bench-import-c: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static void check(sqlite3 *db, int code, const char *what) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW)
        die("%s: SQLite error %d: %s", what, code, sqlite3_errmsg(db));
}

static void exec(sqlite3 *db, const char *sql) { check(db, sqlite3_exec(db, sql, NULL, NULL, NULL), sql); }

static int64_t scalar(sqlite3 *db, const char *sql, int *is_null) {
    sqlite3_stmt *statement = NULL;
    check(db, sqlite3_prepare_v2(db, sql, -1, &statement, NULL), sql);
    if (sqlite3_step(statement) != SQLITE_ROW) die("%s: no row: %s", sql, sqlite3_errmsg(db));
    if (is_null) *is_null = sqlite3_column_type(statement, 0) == SQLITE_NULL;
    int64_t value = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    return value;
}

// MARK: fold and match key

/// fold() of U+0080...U+00FF as UTF-8 (NULL: unchanged; " ": white space), derived with
/// python3 -c "import unicodedata; print([(hex(c), ''.join(x for x in unicodedata.normalize('NFD',
/// chr(c).lower()) if unicodedata.category(x) != 'Mn')) for c in range(0x80, 0x100)])"
/// and Unicode's White_Space property (U+0085, U+00A0).
static const char *latin1_fold[128];

static void make_fold_table(void) {
    static const struct { unsigned code; const char *folded; } entries[] = {
        {0x85, " "}, {0xA0, " "},
        {0xC0, "a"}, {0xC1, "a"}, {0xC2, "a"}, {0xC3, "a"}, {0xC4, "a"}, {0xC5, "a"}, {0xC6, "\xC3\xA6"},
        {0xC7, "c"}, {0xC8, "e"}, {0xC9, "e"}, {0xCA, "e"}, {0xCB, "e"}, {0xCC, "i"}, {0xCD, "i"},
        {0xCE, "i"}, {0xCF, "i"}, {0xD0, "\xC3\xB0"}, {0xD1, "n"}, {0xD2, "o"}, {0xD3, "o"}, {0xD4, "o"},
        {0xD5, "o"}, {0xD6, "o"}, {0xD8, "\xC3\xB8"}, {0xD9, "u"}, {0xDA, "u"}, {0xDB, "u"}, {0xDC, "u"},
        {0xDD, "y"}, {0xDE, "\xC3\xBE"}, {0xE0, "a"}, {0xE1, "a"}, {0xE2, "a"}, {0xE3, "a"}, {0xE4, "a"},
        {0xE5, "a"}, {0xE7, "c"}, {0xE8, "e"}, {0xE9, "e"}, {0xEA, "e"}, {0xEB, "e"}, {0xEC, "i"},
        {0xED, "i"}, {0xEE, "i"}, {0xEF, "i"}, {0xF1, "n"}, {0xF2, "o"}, {0xF3, "o"}, {0xF4, "o"},
        {0xF5, "o"}, {0xF6, "o"}, {0xF9, "u"}, {0xFA, "u"}, {0xFB, "u"}, {0xFC, "u"}, {0xFD, "y"},
        {0xFF, "y"},
    };
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) latin1_fold[entries[i].code - 0x80] = entries[i].folded;
}

static const uint64_t FNV_OFFSET = 0xcbf29ce484222325ULL, FNV_PRIME = 0x100000001b3ULL;

static inline uint64_t fnv_byte(uint64_t hash, unsigned char byte) { return (hash ^ byte) * FNV_PRIME; }

/// Hashes fold(text) into `hash`: white space runs become one space, none at either end.
static uint64_t fnv_folded(uint64_t hash, const unsigned char *text, size_t length) {
    int wrote = 0, space = 0;
    for (size_t i = 0; i < length;) {
        unsigned char byte = text[i];
        if (byte < 0x80) {
            i++;
            if (byte == ' ' || (byte >= 0x09 && byte <= 0x0D)) { space = 1; continue; }
            if (space && wrote) hash = fnv_byte(hash, ' ');
            space = 0;
            wrote = 1;
            hash = fnv_byte(hash, (byte >= 'A' && byte <= 'Z') ? byte + 32 : byte);
        } else if ((byte == 0xC2 || byte == 0xC3) && i + 1 < length) {
            unsigned code = ((unsigned)(byte & 0x1F) << 6) | (text[i + 1] & 0x3F);
            const char *folded = latin1_fold[code - 0x80];
            if (folded && folded[0] == ' ') { space = 1; i += 2; continue; }
            if (space && wrote) hash = fnv_byte(hash, ' ');
            space = 0;
            wrote = 1;
            if (folded) {
                for (const char *p = folded; *p; p++) hash = fnv_byte(hash, (unsigned char)*p);
            } else {
                hash = fnv_byte(fnv_byte(hash, byte), text[i + 1]);
            }
            i += 2;
        } else {
            // Outside Latin-1: hashed unchanged, the whole sequence (see the note at the top).
            size_t n = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
            if (space && wrote) hash = fnv_byte(hash, ' ');
            space = 0;
            wrote = 1;
            for (size_t k = 0; k < n && i < length; k++, i++) hash = fnv_byte(hash, text[i]);
        }
    }
    return hash;
}

static int64_t match_key(const unsigned char *artist, size_t artist_length, const unsigned char *title, size_t title_length) {
    uint64_t hash = fnv_folded(FNV_OFFSET, artist, artist_length);
    hash = fnv_byte(hash, 0x1F);
    hash = fnv_folded(hash, title, title_length);
    int64_t key;
    memcpy(&key, &hash, sizeof key);
    return key;
}

// MARK: CSV (RFC 4180), parsed in place

struct field {
    const char *text;  // NULL: an empty cell (SQL NULL)
    size_t length;
};

struct parser {
    const char *at, *end;
    long line;  // 1-based line where the current record starts
    long next_line;
    // Unescaped copies of quoted fields holding doubled quotes, kept until the batch has run.
    char *scratch;
    size_t scratch_used, scratch_capacity;
};

/// Room for `length` more bytes of scratch. Fields copied before stay valid: the buffer is
/// sized once for the whole file (an unescaped field is never longer than its source).
static char *scratch_room(struct parser *parser, size_t length) {
    if (parser->scratch_used + length > parser->scratch_capacity) die("internal: scratch buffer too small");
    char *room = parser->scratch + parser->scratch_used;
    parser->scratch_used += length;
    return room;
}

/// Reads one field at `parser->at`; returns 1 when the record goes on (a comma followed), 0 at
/// its end (a line end or the end of the file).
static int read_field(struct parser *parser, struct field *field) {
    const char *p = parser->at, *end = parser->end;
    if (p < end && *p == '"') {
        const char *start = ++p;
        size_t quotes = 0;
        for (;;) {
            if (p >= end) die("line %ld: a quoted field is not closed", parser->line);
            if (*p == '"') {
                if (p + 1 < end && p[1] == '"') { quotes++; p += 2; continue; }
                break;
            }
            if (*p == '\n') parser->next_line++;
            p++;
        }
        size_t length = (size_t)(p - start);
        p++;  // the closing quote
        if (quotes == 0) {
            field->text = start;
            field->length = length;
        } else {
            char *copy = scratch_room(parser, length - quotes), *out = copy;
            for (const char *q = start; q < start + length; q++) {
                *out++ = *q;
                if (*q == '"') q++;
            }
            field->text = copy;
            field->length = length - quotes;
        }
        // An empty quoted field is empty text, not a missing value; AlbumStore's columns take NULL
        // for both, as an import does.
        if (field->length == 0) field->text = NULL;
    } else {
        const char *start = p;
        while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
            if (*p == '"') die("line %ld: a double quote inside an unquoted field", parser->line);
            p++;
        }
        field->text = p == start ? NULL : start;
        field->length = (size_t)(p - start);
    }
    if (p < end && *p == ',') { parser->at = p + 1; return 1; }
    if (p < end && *p == '\r') p++;
    if (p < end && *p == '\n') { p++; parser->next_line++; }
    else if (p < end) die("line %ld: a field goes on after its closing quote", parser->line);
    parser->at = p;
    return 0;
}

/// Reads a record of `count` fields into `fields` (a record with any other count is an error);
/// returns 0 at the end of the file. Blank lines are skipped.
static int read_record(struct parser *parser, struct field *fields, int count) {
    while (parser->at < parser->end && (*parser->at == '\n' || *parser->at == '\r')) {
        if (*parser->at == '\n') parser->next_line++;
        parser->at++;
    }
    if (parser->at >= parser->end) return 0;
    parser->line = parser->next_line;
    int n = 0;
    struct field field;
    for (;;) {
        int more = read_field(parser, &field);
        if (n < count) fields[n] = field;
        n++;
        if (!more) break;
    }
    if (n != count) die("line %ld: %d fields, the header has %d", parser->line, n, count);
    return 1;
}

// MARK: NDJSON, parsed in place

/// Appends the UTF-8 bytes of code point `c` at `out`; returns the end.
static char *put_utf8(char *out, uint32_t c) {
    if (c < 0x80) { *out++ = (char)c; }
    else if (c < 0x800) { *out++ = (char)(0xC0 | c >> 6); *out++ = (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) { *out++ = (char)(0xE0 | c >> 12); *out++ = (char)(0x80 | (c >> 6 & 0x3F)); *out++ = (char)(0x80 | (c & 0x3F)); }
    else { *out++ = (char)(0xF0 | c >> 18); *out++ = (char)(0x80 | (c >> 12 & 0x3F)); *out++ = (char)(0x80 | (c >> 6 & 0x3F)); *out++ = (char)(0x80 | (c & 0x3F)); }
    return out;
}

static uint32_t hex4(struct parser *parser, const char *p) {
    if (parser->end - p < 4) die("line %ld: a \\u escape is cut short", parser->line);
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) {
        char h = p[i];
        int digit = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
        if (digit < 0) die("line %ld: a \\u escape with a non-hex digit", parser->line);
        value = value << 4 | (uint32_t)digit;
    }
    return value;
}

/// Reads the JSON string whose opening quote is at `p`: in place when it has no escape, else
/// unescaped into the scratch buffer. Returns the byte after the closing quote.
static const char *read_json_string(struct parser *parser, const char *p, struct field *field) {
    const char *start = ++p, *end = parser->end;
    while (p < end && *p != '"' && *p != '\\') p++;
    if (p >= end) die("line %ld: a string is not closed", parser->line);
    if (*p == '"') {
        field->text = start;
        field->length = (size_t)(p - start);
        return p + 1;
    }
    // An escape: copy what came before, then unescape to the closing quote. Unescaped text is
    // never longer than its source (\uXXXX, six bytes, is at most four).
    char *copy = parser->scratch + parser->scratch_used, *out = copy;
    memcpy(out, start, (size_t)(p - start));
    out += p - start;
    while (p < end && *p != '"') {
        if (*p != '\\') { *out++ = *p++; continue; }
        if (++p >= end) break;
        char escape = *p++;
        switch (escape) {
            case '"': case '\\': case '/': *out++ = escape; break;
            case 'b': *out++ = '\b'; break;
            case 'f': *out++ = '\f'; break;
            case 'n': *out++ = '\n'; break;
            case 'r': *out++ = '\r'; break;
            case 't': *out++ = '\t'; break;
            case 'u': {
                uint32_t c = hex4(parser, p);
                p += 4;
                if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                    uint32_t low = hex4(parser, p + 2);
                    if (low >= 0xDC00 && low < 0xE000) { c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00); p += 6; }
                }
                out = put_utf8(out, c);
                break;
            }
            default: die("line %ld: a bad escape \\%c", parser->line, escape);
        }
    }
    if (p >= end) die("line %ld: a string is not closed", parser->line);
    field->text = copy;
    field->length = (size_t)(out - copy);
    scratch_room(parser, field->length);
    return p + 1;
}

static const char *skip_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

/// Reads one NDJSON line, a flat object, into `row` by column (keys it does not know are
/// skipped, null is SQL NULL, a number is kept as its text); returns 0 at the end of the file.
static int read_ndjson_record(struct parser *parser, struct field *row) {
    const char *p = parser->at, *end = parser->end;
    while (p < end && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')) {
        if (*p == '\n') parser->next_line++;
        p++;
    }
    if (p >= end) { parser->at = p; return 0; }
    parser->line = parser->next_line;
    memset(row, 0, COLUMNS * sizeof *row);
    if (*p != '{') die("line %ld: not an object", parser->line);
    p = skip_space(p + 1, end);
    if (p < end && *p == '}') p++;
    else for (;;) {
        struct field key, value = {NULL, 0};
        if (p >= end || *p != '"') die("line %ld: a key was expected", parser->line);
        p = skip_space(read_json_string(parser, p, &key), end);
        if (p >= end || *p != ':') die("line %ld: ':' was expected", parser->line);
        p = skip_space(p + 1, end);
        if (p < end && *p == '"') {
            p = read_json_string(parser, p, &value);
        } else {
            const char *start = p;
            while (p < end && *p != ',' && *p != '}' && *p != ' ' && *p != '\n') p++;
            size_t length = (size_t)(p - start);
            if (length == 0 || *start == '{' || *start == '[') die("line %ld: a value was expected", parser->line);
            if (!(length == 4 && memcmp(start, "null", 4) == 0)) { value.text = start; value.length = length; }
        }
        if (value.text && value.length == 0) value.text = NULL;  // an empty text is absent, as in CSV
        for (int c = 0; c < COLUMNS; c++) {
            if (key.length == strlen(column_names[c]) && memcmp(key.text, column_names[c], key.length) == 0) row[c] = value;
        }
        p = skip_space(p, end);
        if (p < end && *p == ',') { p = skip_space(p + 1, end); continue; }
        if (p < end && *p == '}') { p++; break; }
        die("line %ld: ',' or '}' was expected", parser->line);
    }
    p = skip_space(p, end);
    if (p < end && *p != '\n') die("line %ld: bytes after the object", parser->line);
    parser->at = p;
    return 1;
}

// MARK: the import

/// Maps each column of the file to an AlbumStore column (-1: ignored).
static int header_columns(struct parser *parser, int *map, struct field *fields, int capacity) {
    if (parser->end - parser->at >= 3 && memcmp(parser->at, "\xEF\xBB\xBF", 3) == 0) parser->at += 3;
    parser->line = parser->next_line;
    int n = 0;
    struct field field;
    for (;;) {
        int more = read_field(parser, &field);
        if (n >= capacity) die("line 1: more than %d columns", capacity);
        fields[n] = field;
        map[n] = -1;
        for (int c = 0; c < COLUMNS; c++) {
            if (field.text && field.length == strlen(column_names[c]) && memcmp(field.text, column_names[c], field.length) == 0) map[n] = c;
        }
        n++;
        if (!more) break;
    }
    return n;
}

static int64_t now_milliseconds(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/// Drops the indexes or triggers (`type`) of albums that have SQL, in schema order; returns how
/// many, their CREATE statements in `sql` (malloc'd) to run again later.
static int set_aside(sqlite3 *db, const char *type, char **sql, int capacity) {
    sqlite3_stmt *list = NULL;
    check(db, sqlite3_prepare_v2(db, "SELECT name, sql FROM sqlite_schema WHERE type = ? AND tbl_name = 'albums' "
                                     "AND sql IS NOT NULL ORDER BY rowid", -1, &list, NULL), "list the schema");
    sqlite3_bind_text(list, 1, type, -1, SQLITE_STATIC);
    char *drops[64];
    int count = 0;
    while (sqlite3_step(list) == SQLITE_ROW) {
        if (count == capacity || count == 64) die("more than %d of type %s", capacity, type);
        sql[count] = strdup((const char *)sqlite3_column_text(list, 1));
        drops[count] = sqlite3_mprintf("DROP %s main.\"%w\"", strcmp(type, "index") == 0 ? "INDEX" : "TRIGGER",
                                       (const char *)sqlite3_column_text(list, 0));
        count++;
    }
    sqlite3_finalize(list);
    for (int i = 0; i < count; i++) { exec(db, drops[i]); sqlite3_free(drops[i]); }
    return count;
}

/// The INSERT for `rows` rows: ?1 is the time, then each row's columns.
static sqlite3_stmt *prepare_insert(sqlite3 *db, int rows, int with_match_key) {
    size_t capacity = 256 + (size_t)rows * 96;
    char *sql = malloc(capacity), *p = sql;
    p += sprintf(p, "INSERT INTO albums (position, title, artist, genre, year, cover_url, external_id, created_at, updated_at%s) VALUES ",
                 with_match_key ? ", match_key" : "");
    int per_row = with_match_key ? 8 : 7;
    for (int r = 0; r < rows; r++) {
        int b = 2 + r * per_row;  // numbered: an anonymous `?` after ?1 would not skip it
        p += sprintf(p, "%s(?%d,?%d,?%d,?%d,?%d,?%d,?%d,?1,?1", r ? "," : "", b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6);
        p += with_match_key ? sprintf(p, ",?%d)", b + 7) : sprintf(p, ")");
    }
    sqlite3_stmt *statement = NULL;
    check(db, sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), "prepare INSERT");
    free(sql);
    return statement;
}

static void bind_text(sqlite3 *db, sqlite3_stmt *statement, int index, const struct field *field) {
    int code = field->text ? sqlite3_bind_text(statement, index, field->text, (int)field->length, SQLITE_STATIC)
                           : sqlite3_bind_null(statement, index);
    check(db, code, "bind");
}

int main(int argc, char **argv) {
    int keep_indexes = 0, keep_triggers = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--keep-indexes") == 0) keep_indexes = 1;
        else if (strcmp(argv[i], "--keep-triggers") == 0) keep_triggers = 1;
        else argc = 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: %s DB FILE.csv|FILE.ndjson [--keep-indexes] [--keep-triggers]\n", argv[0]);
        return 2;
    }
    const char *path = argv[1], *csv_path = argv[2];
    make_fold_table();

    int fd = open(csv_path, O_RDONLY);
    if (fd < 0) die("cannot open %s: %s", csv_path, strerror(errno));
    struct stat status;
    if (fstat(fd, &status) != 0) die("cannot stat %s: %s", csv_path, strerror(errno));
    size_t size = (size_t)status.st_size;
    const char *data = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : "";
    if (data == MAP_FAILED) die("cannot map %s: %s", csv_path, strerror(errno));
    if (size) madvise((void *)data, size, MADV_SEQUENTIAL);

    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) die("cannot open %s: %s", path, sqlite3_errmsg(db));
    sqlite3_busy_timeout(db, 5000);
    // As AlbumStore's connections: WAL, synchronous NORMAL, foreign keys, recursive triggers, and
    // SQLite's default page cache (2 MiB), which measured fastest here too: 4.8 s against 5.8 s
    // with 64 MiB and 5.5 s with 16 MiB (fresh pages cost more than the index builds save);
    // `PRAGMA threads = 2` (sorter threads) gained nothing on 2 shared cores.
    exec(db, "PRAGMA journal_mode = WAL");
    exec(db, "PRAGMA synchronous = NORMAL");
    exec(db, "PRAGMA foreign_keys = ON");
    exec(db, "PRAGMA recursive_triggers = ON");
    int with_match_key = (int)scalar(db, "SELECT count(*) FROM pragma_table_info('albums') WHERE name = 'match_key'", NULL);

    size_t name_length = strlen(csv_path);
    int ndjson = (name_length > 7 && strcmp(csv_path + name_length - 7, ".ndjson") == 0)
        || (name_length > 6 && strcmp(csv_path + name_length - 6, ".jsonl") == 0);
    struct parser parser = {.at = data, .end = data + size, .next_line = 1};
    parser.scratch_capacity = size + 1;
    parser.scratch = malloc(parser.scratch_capacity);
    if (!parser.scratch) die("out of memory");
    enum { MAX_COLUMNS = 256 };
    int map[MAX_COLUMNS];
    struct field header[MAX_COLUMNS], fields[MAX_COLUMNS];
    int file_columns = 0;
    if (!ndjson) {
        file_columns = header_columns(&parser, map, header, MAX_COLUMNS);
        int has[COLUMNS] = {0};
        for (int i = 0; i < file_columns; i++) if (map[i] >= 0) has[map[i]] = 1;
        if (!has[TITLE] || !has[ARTIST]) die("%s: the header names no title or no artist column", csv_path);
    }

    exec(db, "BEGIN IMMEDIATE");
    int empty_table = 0;
    int64_t last_position = scalar(db, "SELECT max(position) FROM albums", &empty_table);
    int64_t position = empty_table ? 0 : last_position + POSITION_GAP;

    // The secondary indexes, built again after the rows (only on an empty table: rebuilding a
    // large one would cost more than it saves).
    enum { MAX_INDEXES = 32 };
    char *index_sql[MAX_INDEXES];
    int indexes = 0;
    if (empty_table && !keep_indexes) indexes = set_aside(db, "index", index_sql, MAX_INDEXES);

    // The triggers, created again before the commit.
    enum { MAX_TRIGGERS = 32 };
    char *trigger_sql[MAX_TRIGGERS];
    int triggers = 0;
    if (!keep_triggers) triggers = set_aside(db, "trigger", trigger_sql, MAX_TRIGGERS);

    exec(db, "UPDATE change_control SET bulk = 1");
    int64_t now = now_milliseconds();
    int per_row = with_match_key ? 8 : 7;
    sqlite3_stmt *batch_insert = prepare_insert(db, ROWS_PER_INSERT, with_match_key);
    sqlite3_stmt *single_insert = prepare_insert(db, 1, with_match_key);
    int64_t first_id = 0, last_id = 0;
    long count = 0;
    check(db, sqlite3_bind_int64(batch_insert, 1, now), "bind now");
    check(db, sqlite3_bind_int64(single_insert, 1, now), "bind now");
    // A batch of records is read first (their fields point into the mapping or the scratch
    // buffer), then bound: a full batch to the many-row statement, a last partial one row by row.
    struct field (*batch)[COLUMNS] = calloc(ROWS_PER_INSERT, sizeof *batch);
    long batch_lines[ROWS_PER_INSERT];
    if (!batch) die("out of memory");
    int more = 1;
    while (more) {
        int rows = 0;
        parser.scratch_used = 0;
        while (rows < ROWS_PER_INSERT) {
            if (ndjson) {
                more = read_ndjson_record(&parser, batch[rows]);
            } else if ((more = read_record(&parser, fields, file_columns))) {
                memset(batch[rows], 0, sizeof batch[rows]);
                for (int i = 0; i < file_columns; i++) if (map[i] >= 0) batch[rows][map[i]] = fields[i];
            }
            if (!more) break;
            if (!batch[rows][TITLE].text || !batch[rows][ARTIST].text) die("line %ld: no title or no artist", parser.line);
            batch_lines[rows++] = parser.line;
        }
        sqlite3_stmt *statement = rows == ROWS_PER_INSERT ? batch_insert : single_insert;
        for (int r = 0; r < rows; r++) {
            const struct field *value = batch[r];
            int base = 2 + (statement == batch_insert ? r * per_row : 0);
            check(db, sqlite3_bind_int64(statement, base, position), "bind position");
            bind_text(db, statement, base + 1, &value[TITLE]);
            bind_text(db, statement, base + 2, &value[ARTIST]);
            bind_text(db, statement, base + 3, &value[GENRE]);
            if (value[YEAR].text) {
                int64_t year = 0;
                for (size_t k = 0; k < value[YEAR].length; k++) {
                    char digit = value[YEAR].text[k];
                    if (digit < '0' || digit > '9' || k >= 4) die("line %ld: year: not a year", batch_lines[r]);
                    year = year * 10 + (digit - '0');
                }
                check(db, sqlite3_bind_int64(statement, base + 4, year), "bind year");
            } else {
                check(db, sqlite3_bind_null(statement, base + 4), "bind year");
            }
            bind_text(db, statement, base + 5, &value[COVER_URL]);
            bind_text(db, statement, base + 6, &value[EXTERNAL_ID]);
            if (with_match_key) {
                int64_t key = match_key((const unsigned char *)value[ARTIST].text, value[ARTIST].length,
                                        (const unsigned char *)value[TITLE].text, value[TITLE].length);
                check(db, sqlite3_bind_int64(statement, base + 7, key), "bind match_key");
            }
            position += POSITION_GAP;
            if (statement == single_insert || r == rows - 1) {
                if (sqlite3_step(statement) != SQLITE_DONE)
                    die("line %ld: %s", batch_lines[statement == single_insert ? r : 0], sqlite3_errmsg(db));
                sqlite3_reset(statement);
                last_id = sqlite3_last_insert_rowid(db);
                if (!first_id) first_id = last_id - (statement == single_insert ? 1 : rows) + 1;
            }
        }
        count += rows;
    }
    free(batch);

    exec(db, "UPDATE change_control SET bulk = 0");
    for (int i = 0; i < indexes; i++) { exec(db, index_sql[i]); free(index_sql[i]); }
    for (int i = 0; i < triggers; i++) { exec(db, trigger_sql[i]); free(trigger_sql[i]); }
    // What the triggers set aside would have kept, brought up to date in bulk as the library's
    // import does (InsertFollowers): the full-text index rebuilt from the table (migration 0007),
    // and the planner's statistics sampled once the table grew by a tenth.
    if (scalar(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'album_search'", NULL) > 0)
        exec(db, "INSERT INTO album_search (album_search) VALUES ('rebuild')");
    int64_t total = scalar(db, "SELECT count(*) FROM albums", NULL);
    if (count >= 1000 && count * 10 >= total) {
        exec(db, "PRAGMA analysis_limit = 1000");
        exec(db, "ANALYZE albums");
    }
    // The order statistics (migration 0006): the list cut into blocks of 4,096 albums in
    // position order, each with its count, the first block opening at the smallest key, and the
    // counts stamped right at the schema version the commit leaves (last: ANALYZE may
    // create sqlite_stat1, a schema change).
    if (scalar(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'album_blocks'", NULL) > 0) {
        exec(db, "DELETE FROM album_blocks");
        exec(db, "INSERT INTO album_blocks (first, count) "
                 "SELECT CASE WHEN block = 0 THEN -9223372036854775807 - 1 ELSE min(position) END, count(*) "
                 "FROM (SELECT position, (row_number() OVER (ORDER BY position, id) - 1) / 4096 AS block FROM albums) "
                 "GROUP BY block");
        exec(db, "INSERT OR IGNORE INTO album_blocks (first, count) VALUES (-9223372036854775807 - 1, 0)");
        exec(db, "UPDATE album_blocks_checked SET schema_version = (SELECT schema_version FROM pragma_schema_version)");
    }
    // Their total (migration 0010), which the insert trigger set aside would have kept.
    if (scalar(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'album_blocks_total'", NULL) > 0)
        exec(db, "UPDATE album_blocks_total SET total = (SELECT count(*) FROM albums)");
    if (count > 0) {
        sqlite3_stmt *log = NULL, *history = NULL;
        check(db, sqlite3_prepare_v2(db, "INSERT INTO change_log (tx, table_name, operation, row_id, last_row_id, at) "
                                         "VALUES ((coalesce((SELECT tx FROM change_log ORDER BY seq DESC LIMIT 1), 0) + 1), 'albums', 'insert', ?, ?, ?)", -1, &log, NULL), "log");
        sqlite3_bind_int64(log, 1, first_id);
        sqlite3_bind_int64(log, 2, last_id);
        sqlite3_bind_int64(log, 3, now_milliseconds());
        check(db, sqlite3_step(log), "change_log entry");
        sqlite3_finalize(log);
        char description[64], ids[64];
        snprintf(description, sizeof description, "add %ld albums", count);
        snprintf(ids, sizeof ids, "%" PRId64 "-%" PRId64, first_id, last_id);
        check(db, sqlite3_prepare_v2(db, "INSERT INTO history (description, changeset, appended_ids, created_at) VALUES (?, x'', ?, ?)",
                                     -1, &history, NULL), "history");
        sqlite3_bind_text(history, 1, description, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(history, 2, ids, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(history, 3, now_milliseconds());
        check(db, sqlite3_step(history), "history entry");
        sqlite3_finalize(history);
    }
    exec(db, "COMMIT");
    sqlite3_finalize(batch_insert);
    sqlite3_finalize(single_insert);
    if (sqlite3_close(db) != SQLITE_OK) die("close: %s", sqlite3_errmsg(db));
    fprintf(stderr, "bench-import-c: inserted %ld albums (ids %" PRId64 "-%" PRId64 "), match_key %s, indexes %s, triggers %s (SQLite %s)\n",
            count, first_id, last_id, with_match_key ? "set" : "absent (no column)",
            indexes ? "built after the rows" : "kept row by row", triggers ? "set aside" : "kept", sqlite3_libversion());
    return 0;
}
