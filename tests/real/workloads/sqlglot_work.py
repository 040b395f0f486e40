"""sqlglot workload: transpile generated analytics queries between dialects (MySQL,
Postgres, BigQuery, Snowflake, Spark, DuckDB), pretty-print them, walk and rewrite their
ASTs, and run the optimizer (qualify, pushdown, simplify) against a fixed schema — what a
SQL linter or query router does. Deterministic; prints a CRC32 of all generated SQL."""

import zlib

import sqlglot
from sqlglot import exp
from sqlglot.optimizer import optimize

SCHEMA = {
    "users": {"id": "INT", "name": "VARCHAR", "country": "VARCHAR", "created_at": "TIMESTAMP"},
    "orders": {"id": "INT", "user_id": "INT", "total": "DOUBLE", "status": "VARCHAR",
               "created_at": "TIMESTAMP"},
    "items": {"order_id": "INT", "sku": "VARCHAR", "qty": "INT", "price": "DOUBLE"},
}


def query(i):
    return f"""
WITH recent AS (
  SELECT o.id, o.user_id, o.total, o.status
  FROM orders AS o
  WHERE o.created_at >= CAST('2024-01-{i % 28 + 1:02d}' AS TIMESTAMP)
    AND o.status IN ('paid', 'shipped')
), per_user AS (
  SELECT r.user_id, COUNT(*) AS n, SUM(r.total) AS revenue, MAX(r.total) AS biggest
  FROM recent AS r GROUP BY r.user_id HAVING COUNT(*) > {i % 4}
)
SELECT u.name, u.country, p.n, p.revenue / NULLIF(p.n, 0) AS avg_order,
       CASE WHEN p.revenue > {i * 100} THEN 'gold' WHEN p.revenue > {i * 10} THEN 'silver'
            ELSE 'bronze' END AS tier,
       COALESCE(UPPER(SUBSTRING(u.name, 1, 3)), 'n/a') AS prefix,
       (SELECT SUM(it.qty * it.price) FROM items AS it JOIN recent AS rr ON it.order_id = rr.id
        WHERE rr.user_id = u.id) AS item_value
FROM users AS u JOIN per_user AS p ON p.user_id = u.id
WHERE u.country <> 'XX' AND (u.id % {i % 7 + 2} = 0 OR u.name LIKE '%{i}%') AND 1 = 1
ORDER BY avg_order DESC, u.name LIMIT {i + 5}
"""


SIMPLE = [
    "SELECT a, b + {i}, COUNT(DISTINCT c) FROM t{i} WHERE x BETWEEN {i} AND {i} + 10 GROUP BY 1, 2",
    "INSERT INTO log{i} (id, msg) VALUES ({i}, 'hello {i}'), ({i} + 1, 'world')",
    "UPDATE users SET name = CONCAT(name, '-{i}')"
    " WHERE id IN (SELECT user_id FROM orders WHERE total > {i})",
    "SELECT IF(x > {i}, 'a', 'b') AS c, DATE_ADD(d, INTERVAL {i} DAY) FROM t LIMIT {i}",
    "CREATE TABLE t{i} (id INT PRIMARY KEY, name VARCHAR(100) NOT NULL, price DECIMAL(10, 2))",
]
DIALECTS = ["mysql", "postgres", "bigquery", "snowflake", "spark", "duckdb"]

crc = 0
nodes = 0
for i in range(15):
    sql = query(i)
    tree = sqlglot.parse_one(sql)
    nodes += sum(1 for _ in tree.walk())
    for d in DIALECTS:
        out = tree.sql(dialect=d, pretty=(d == "postgres"))
        crc = zlib.crc32(out.encode(), crc)
    renamed = tree.transform(
        lambda n: exp.column(n.name.upper(), n.table) if isinstance(n, exp.Column) else n
    )
    crc = zlib.crc32(renamed.sql().encode(), crc)
    if i % 2 == 0:
        opt = optimize(sqlglot.parse_one(sql), schema=SCHEMA)
        crc = zlib.crc32(opt.sql(pretty=True).encode(), crc)
    for k, tmpl in enumerate(SIMPLE):
        src = tmpl.format(i=i)
        for read, write in (("mysql", "postgres"), ("mysql", "duckdb"), ("mysql", "spark")):
            for out in sqlglot.transpile(src, read=read, write=write):
                crc = zlib.crc32(out.encode(), crc)
print(f"sqlglot: {nodes} nodes, crc {crc:08x}")
