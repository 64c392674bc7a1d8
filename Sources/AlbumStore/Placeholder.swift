import SQLite
