"""Reference cases for the margin, ranking and embedding losses
(tests/nn/margin_losses_test.cpp). Targets of 1 and -1 are drawn as 0/1 integers y and passed
as 2 y - 1; weights are detached, as the losses treat them."""
import torch
import torch.nn.functional as F

from op_case import Case, S


def signs(y):
    return (2 * y - 1).double()


# Rows list classes until their first -1: {3, 0}, {1, 2, 3} and none.
MULTILABEL_TARGET = torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]])

CASES = {
    "margin_ranking": Case(lambda a, b, y: F.margin_ranking_loss(a, b, signs(y), margin=0.3),
                           [S(6), S(6), S(6, domain="int:0:2")]),
    "margin_ranking_none":
        Case(lambda a, b, y: F.margin_ranking_loss(a, b, signs(y), reduction="none"),
             [S(2, 3), S(2, 3), S(2, 3, domain="int:0:2")]),
    "hinge_embedding": Case(lambda x, y: F.hinge_embedding_loss(x * 2, signs(y)),
                            [S(3, 4), S(3, 4, domain="int:0:2")]),
    "hinge_embedding_margin_sum":
        Case(lambda x, y: F.hinge_embedding_loss(x, signs(y), margin=0.5, reduction="sum"),
             [S(3, 4), S(3, 4, domain="int:0:2")]),
    "soft_margin": Case(lambda x, y: F.soft_margin_loss(x * 3, signs(y)),
                        [S(3, 4), S(3, 4, domain="int:0:2")]),
    "soft_margin_none": Case(lambda x, y: F.soft_margin_loss(x, signs(y), reduction="none"),
                             [S(3, 4), S(3, 4, domain="int:0:2")]),
    "multilabel_soft_margin": Case(lambda x, y: F.multilabel_soft_margin_loss(x, y.double()),
                                   [S(3, 5), S(3, 5, domain="int:0:2")]),
    "multilabel_soft_margin_weight_none":
        Case(lambda x, y, w: F.multilabel_soft_margin_loss(x, y.double(), weight=w.detach(),
                                                           reduction="none"),
             [S(3, 5), S(3, 5, domain="int:0:2"), S(5, domain="positive")]),
    "multi_margin": Case(F.multi_margin_loss, [S(4, 5), S(4, domain="int:0:5")]),
    "multi_margin_p2_margin_weight":
        Case(lambda x, y, w: F.multi_margin_loss(x, y, p=2, margin=0.7, weight=w.detach()),
             [S(4, 5), S(4, domain="int:0:5"), S(5, domain="positive")]),
    "multi_margin_unbatched_none":
        Case(lambda x, y: F.multi_margin_loss(x, y, reduction="none"),
             [S(5), S(domain="int:0:5")]),
    "cosine_embedding":
        Case(lambda a, b, y: F.cosine_embedding_loss(a, b, signs(y), margin=0.2),
             [S(4, 3), S(4, 3), S(4, domain="int:0:2")]),
    "cosine_embedding_unbatched_none":
        Case(lambda a, b, y: F.cosine_embedding_loss(a, b, signs(y), reduction="none"),
             [S(3), S(3), S(domain="int:0:2")]),
    "triplet_margin": Case(F.triplet_margin_loss, [S(4, 3), S(4, 3), S(4, 3)]),
    "triplet_margin_swap_p1_none":
        Case(lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.5, p=1, swap=True,
                                                   reduction="none"),
             [S(4, 3), S(4, 3), S(4, 3)]),
    "multilabel_margin": Case(lambda x: F.multilabel_margin_loss(x, MULTILABEL_TARGET),
                              [S(3, 4)]),
    "multilabel_margin_unbatched_none":
        Case(lambda x: F.multilabel_margin_loss(x, torch.tensor([2, -1, 0, 0]), reduction="none"),
             [S(4)]),
    "triplet_with_distance": Case(F.triplet_margin_with_distance_loss,
                                  [S(4, 3), S(4, 3), S(4, 3)]),
    "triplet_with_cosine_distance_swap":
        Case(lambda a, p, n: F.triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda x, y: 1 - F.cosine_similarity(x, y), margin=0.5,
            swap=True),
             [S(4, 3), S(4, 3), S(4, 3)]),
}
