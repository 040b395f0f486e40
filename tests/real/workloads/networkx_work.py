"""networkx workload: graph analytics in pure Python the way a dependency or route planner
uses it — build graphs from edge lists, shortest paths (BFS, Dijkstra, A*), components,
topological order of a DAG, minimum spanning tree, max flow, centrality, clustering and core
numbers. No numpy/scipy paths. Deterministic; prints a CRC32 of the results."""

import zlib

import networkx as nx


def lcg(seed):
    x = seed
    while True:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        yield x


def weighted_graph(n, m, seed):
    r = lcg(seed)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for _ in range(m):
        u, v, w = next(r) % n, next(r) % n, 1 + next(r) % 50
        if u != v:
            g.add_edge(u, v, weight=w, capacity=w)
    return g


def dag(n, seed):
    r = lcg(seed)
    d = nx.DiGraph()
    for v in range(1, n):
        for _ in range(3):
            u = next(r) % v
            d.add_edge(f"p{u}", f"p{v}")
    return d


crc = 0


def mix(value):
    global crc
    crc = zlib.crc32(repr(value).encode(), crc)


for seed in range(2):
    g = weighted_graph(400, 1400, seed)
    mix(sorted(len(c) for c in nx.connected_components(g)))
    mix(sorted(nx.single_source_shortest_path_length(g, 0).items())[:50])
    dist = nx.single_source_dijkstra_path_length(g, 0, weight="weight")
    mix(sorted(dist.items())[:50])
    for t in range(1, 40, 7):
        if nx.has_path(g, 0, t):
            mix(nx.astar_path(g, 0, t, weight="weight"))
    mst = nx.minimum_spanning_tree(g, weight="weight", algorithm="kruskal")
    mix(sum(d["weight"] for _, _, d in mst.edges(data=True)))
    mix(sorted(nx.core_number(g).items())[:40])
    mix(round(nx.average_clustering(g), 9))
    sub = g.subgraph(range(120)).copy()
    bc = nx.betweenness_centrality(sub, weight="weight")
    mix(sorted((round(v, 9), k) for k, v in bc.items())[-10:])
    flow = nx.maximum_flow_value(g.to_directed(), 0, 199, capacity="capacity")
    mix(flow)
    d = dag(300, seed)
    order = list(nx.topological_sort(d))
    mix(order[:30])
    mix(len(nx.descendants(d, "p0")))
    mix(nx.dag_longest_path_length(d))
    mix(sorted(nx.in_degree_centrality(d).items())[:20])
print(f"networkx: crc {crc:08x}")
