// Contender "C": the same loops written directly against libsqlite3, the baseline our Swift
// layer is held to. Same command line, rows, SQL, pragmas and open flags as
// BenchCoreSupport/BenchCore.swift and bench-core-swift; keep them in step.
//
// What is and is not the same, so the comparison stays honest:
// - insert: the rows are built in memory before the clock starts, like the Swift contenders'.
//   Texts are bound with their known length and SQLITE_STATIC, as a C programmer would whose
//   rows outlive the statement: SQLite then does not copy them at bind time. (Our layer binds
//   with SQLITE_TRANSIENT because a Swift String's bytes are only lent for the call.)
//   Every result code is checked, as our layer does.
// - read: every column is materialised into memory the caller owns, the C equivalent of Swift
//   Int64/String values: integers are read, each text is copied into its own malloc'd,
//   NUL-terminated buffer, used for the checksum, then freed. (Swift's String init also
//   validates UTF-8, which this copy does not.)
#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const char *const schema_sql =
    "CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist TEXT NOT NULL, "
    "genre TEXT, year INTEGER, cover_url TEXT)";
static const char *const insert_sql =
    "INSERT INTO albums(title, artist, genre, year, cover_url) VALUES (?, ?, ?, ?, ?)";
static const char *const select_sql = "SELECT id, title, artist, genre, year, cover_url FROM albums";
static const char *const count_sql = "SELECT count(*) FROM albums";

static const char *const genres[12] = {
    "Rock", "Pop", "Jazz", "Blues", "Classical", "Electronic",
    "Hip-Hop", "Folk", "Country", "Reggae", "Soul", "Metal",
};

/// One row to insert, built before the clock starts; texts carry their byte length.
struct album_row {
    char *title;
    int title_len;
    char *artist;
    int artist_len;
    const char *genre;
    int genre_len;
    int64_t year;
    char *cover_url;
    int cover_url_len;
};

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("c: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static void check(sqlite3 *db, int code, const char *what) {
    if (code != SQLITE_OK) die("%s: SQLite error %d: %s", what, code, sqlite3_errmsg(db));
}

/// Wall-clock seconds, and the CPU seconds the process used in user space and in the kernel.
struct instant {
    double wall, user, system;
};

static struct instant now(void) {
    struct timespec ts;
    struct rusage usage;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    getrusage(RUSAGE_SELF, &usage);
    return (struct instant){
        .wall = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9,
        .user = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6,
        .system = (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6,
    };
}

/// Keeps the compiler from proving a buffer unused and dropping its malloc/copy/free.
static inline void escape(const void *pointer) { __asm__ volatile("" : : "g"(pointer) : "memory"); }

static char *format_text(int *length, const char *format, long value) {
    char buffer[64];
    int n = snprintf(buffer, sizeof buffer, format, value);
    char *text = malloc((size_t)n + 1);
    if (!text) die("out of memory");
    memcpy(text, buffer, (size_t)n + 1);
    *length = n;
    return text;
}

/// The same deterministic rows as makeAlbumRows(count:) in BenchCore.swift.
static struct album_row *make_rows(long count) {
    struct album_row *rows = calloc((size_t)count, sizeof *rows);
    if (!rows) die("out of memory");
    for (long i = 0; i < count; i++) {
        rows[i].title = format_text(&rows[i].title_len, "Album Title %ld", i);
        rows[i].artist = format_text(&rows[i].artist_len, "Artist %ld", i % 5000);
        rows[i].genre = genres[i % 12];
        rows[i].genre_len = (int)strlen(rows[i].genre);
        rows[i].year = 1950 + i % 75;
        rows[i].cover_url = format_text(&rows[i].cover_url_len, "https://covers.example.com/%ld.jpg", i);
    }
    return rows;
}

/// Opens like our layer's Connection with its default options: same flags and pragmas.
static sqlite3 *open_database(const char *path) {
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        | SQLITE_OPEN_EXRESCODE;
    int code = sqlite3_open_v2(path, &db, flags, NULL);
    if (code != SQLITE_OK) die("cannot open %s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(code));
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, 5000);
    check(db, sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), "journal_mode");
    check(db, sqlite3_exec(db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL), "synchronous");
    check(db, sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), "foreign_keys");
    return db;
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement = NULL;
    check(db, sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
    return statement;
}

static int64_t count_rows(sqlite3 *db) {
    sqlite3_stmt *statement = prepare(db, count_sql);
    if (sqlite3_step(statement) != SQLITE_ROW) die("count: %s", sqlite3_errmsg(db));
    int64_t count = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    return count;
}

/// The timed insert: one transaction, one prepared statement; bind 5 values, step, reset.
static void insert_rows(sqlite3 *db, const struct album_row *rows, long count) {
    check(db, sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), "BEGIN");
    sqlite3_stmt *statement = prepare(db, insert_sql);
    for (long i = 0; i < count; i++) {
        const struct album_row *row = &rows[i];
        check(db, sqlite3_bind_text(statement, 1, row->title, row->title_len, SQLITE_STATIC), "bind title");
        check(db, sqlite3_bind_text(statement, 2, row->artist, row->artist_len, SQLITE_STATIC), "bind artist");
        check(db, sqlite3_bind_text(statement, 3, row->genre, row->genre_len, SQLITE_STATIC), "bind genre");
        check(db, sqlite3_bind_int64(statement, 4, row->year), "bind year");
        check(db, sqlite3_bind_text(statement, 5, row->cover_url, row->cover_url_len, SQLITE_STATIC), "bind cover_url");
        if (sqlite3_step(statement) != SQLITE_DONE) die("insert: %s", sqlite3_errmsg(db));
        sqlite3_reset(statement);
    }
    sqlite3_finalize(statement);
    check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "COMMIT");
}

/// A copy of text column `column` in its own malloc'd buffer, or NULL for SQL NULL.
static char *copy_text(sqlite3_stmt *statement, int column, size_t *length) {
    const unsigned char *text = sqlite3_column_text(statement, column);
    if (!text) {
        *length = 0;
        return NULL;
    }
    size_t n = (size_t)sqlite3_column_bytes(statement, column);
    char *copy = malloc(n + 1);
    if (!copy) die("out of memory");
    memcpy(copy, text, n);
    copy[n] = '\0';
    escape(copy);
    *length = n;
    return copy;
}

static uint64_t text_checksum(const char *text, size_t length) {
    return text ? (uint64_t)length + (length ? (uint64_t)(unsigned char)text[0] : 0) : 0;
}

/// The timed read: every column of every row into owned values, summed into the checksum
/// the Swift contenders compute (albumChecksum in BenchCore.swift).
static long read_rows(sqlite3 *db, uint64_t *checksum) {
    check(db, sqlite3_exec(db, "BEGIN DEFERRED", NULL, NULL, NULL), "BEGIN");
    sqlite3_stmt *statement = prepare(db, select_sql);
    long rows = 0;
    uint64_t sum = 0;
    int code;
    while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
        size_t title_len, artist_len, genre_len, cover_url_len;
        int64_t id = sqlite3_column_int64(statement, 0);
        char *title = copy_text(statement, 1, &title_len);
        char *artist = copy_text(statement, 2, &artist_len);
        char *genre = copy_text(statement, 3, &genre_len);
        int64_t year = sqlite3_column_type(statement, 4) == SQLITE_NULL ? 0 : sqlite3_column_int64(statement, 4);
        char *cover_url = copy_text(statement, 5, &cover_url_len);
        if (!title || !artist) die("NOT NULL column read as NULL");
        sum += (uint64_t)id + (uint64_t)year + text_checksum(title, title_len) + text_checksum(artist, artist_len)
            + text_checksum(genre, genre_len) + text_checksum(cover_url, cover_url_len);
        free(title);
        free(artist);
        free(genre);
        free(cover_url);
        rows++;
    }
    if (code != SQLITE_DONE) die("read: %s", sqlite3_errmsg(db));
    sqlite3_finalize(statement);
    check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "COMMIT");
    *checksum = sum;
    return rows;
}

int main(int argc, char **argv) {
    char *end = NULL;
    long count = argc == 4 ? strtol(argv[3], &end, 10) : 0;
    int insert = argc == 4 && strcmp(argv[1], "insert") == 0;
    int read = argc == 4 && strcmp(argv[1], "read") == 0;
    if ((!insert && !read) || count <= 0 || *end != '\0') {
        fprintf(stderr, "usage: %s insert|read DBPATH N  (prints the timed seconds on stdout)\n", argv[0]);
        return 2;
    }
    const char *path = argv[2];
    sqlite3 *db = open_database(path);
    struct instant started, finished;
    if (insert) {
        struct album_row *rows = make_rows(count);
        check(db, sqlite3_exec(db, schema_sql, NULL, NULL, NULL), "schema");
        started = now();
        insert_rows(db, rows, count);
        finished = now();
        int64_t inserted = count_rows(db);
        if (inserted != count) die("inserted %" PRId64 " rows, expected %ld", inserted, count);
        fprintf(stderr, "c: inserted %" PRId64 " rows (SQLite %s)\n", inserted, sqlite3_libversion());
        for (long i = 0; i < count; i++) {
            free(rows[i].title);
            free(rows[i].artist);
            free(rows[i].cover_url);
        }
        free(rows);
    } else {
        uint64_t checksum = 0;
        started = now();
        long rows = read_rows(db, &checksum);
        finished = now();
        if (rows != count) die("read %ld rows, expected %ld", rows, count);
        fprintf(stderr, "c: read %ld rows checksum=%" PRIu64 " (SQLite %s)\n", rows, checksum, sqlite3_libversion());
    }
    if (sqlite3_close(db) != SQLITE_OK) die("close: %s", sqlite3_errmsg(db));
    // As the Swift contenders: CPU seconds on stderr, wall-clock seconds alone on stdout.
    fprintf(stderr, "cpu user=%.6f sys=%.6f\n", finished.user - started.user, finished.system - started.system);
    printf("%.6f\n", finished.wall - started.wall);
    return 0;
}
