"""Reference cases for normalize, cosine_similarity and pairwise_distance
(tests/nn/distance_test.cpp)."""
import torch.nn.functional as F

from op_case import Case, S

CASES = {
    "normalize": Case(F.normalize, [S(3, 4)]),
    "normalize_p1_dim0": Case(lambda x: F.normalize(x, p=1.0, dim=0), [S(3, 4)]),
    "cosine_similarity": Case(F.cosine_similarity, [S(3, 4), S(3, 4)]),
    "cosine_similarity_broadcast_last_dim":
        Case(lambda a, b: F.cosine_similarity(a, b, dim=-1), [S(2, 1, 4), S(3, 4)]),
    "pairwise_distance": Case(F.pairwise_distance, [S(3, 4), S(3, 4)]),
    "pairwise_distance_p1_keepdim":
        Case(lambda a, b: F.pairwise_distance(a, b, p=1.0, keepdim=True), [S(3, 4), S(3, 4)]),
    "pairwise_distance_p3_vectors": Case(lambda a, b: F.pairwise_distance(a, b, p=3.0),
                                         [S(5), S(5)]),
}
