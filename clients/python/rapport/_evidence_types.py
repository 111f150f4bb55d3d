"""What ``matching.evidence(id)`` and ``reports.evidence(id)`` answer: the measurements a result was
built from, stored as they were then (re-exported by ``rapport.types``, where the drift test reads
them and compares them, nested shapes and enumerations included, with the service's document).
Scores are on ``scale`` (0 to 100); shares and confidences 0 to 1."""
from __future__ import annotations

from typing import Dict, List, Literal, Optional, TypedDict

from ._account_types import Id
from ._measure_types import SpeakerMeasures

EntrainmentFeature = Literal["pitch", "loudness", "rate"]
EntrainmentMeasure = Literal["proximity", "convergence", "synchrony"]


class EvidenceAppearance(TypedDict):
    """One recording a member speaks in, as the result saw it."""

    mediaId: Id
    speakerIndex: int
    #: Seconds; None when the media is no longer there.
    speechSec: Optional[float]
    transcribed: bool
    #: The recording's number of speakers came from the voices alone (``speaker_count_uncertain``).
    countUncertain: bool
    separation: Optional[float]
    trust: float
    #: A transcript on its own, measured from its cues, without a voice (decisions section 19).
    noAudio: bool


class EvidenceMember(TypedDict):
    """The target or one group member: its profile and where it comes from."""

    #: ``"target"`` or ``"group[i]"``.
    ref: str
    name: str
    shortName: str
    entityId: Optional[Id]
    metrics: SpeakerMeasures
    appearances: List[EvidenceAppearance]
    mediaCount: int
    transcribedMediaCount: int
    speechMin: float
    interruptionsPerMin: Optional[float]
    pitchMedianHz: Optional[float]
    profileConfidence: float
    profileTrust: float


class EntrainmentCell(TypedDict):
    feature: EntrainmentFeature
    measure: EntrainmentMeasure
    observed: Optional[float]
    baseline: Optional[float]
    #: Share of shuffles beaten, 0 to 100; None with too few exchanges.
    score: Optional[float]
    exchanges: int


class EvidenceFigures(TypedDict):
    measured: int
    possible: int


class _EvidenceComponentRequired(TypedDict):
    key: str
    name: str
    score: Optional[float]
    confidence: float
    weight: float
    inputs: Dict[str, Optional[float]]
    figures: EvidenceFigures


class EvidenceComponent(_EvidenceComponentRequired, total=False):
    """One dimension's score for a pair, with what it was computed from."""

    #: Entrainment only: the feature x measure cells.
    cells: List[EntrainmentCell]


class EvidenceOverall(TypedDict):
    score: Optional[float]
    confidence: float


class EvidencePair(TypedDict):
    """The target and one group member."""

    #: The group member's ref, ``"group[i]"``.
    member: str
    name: str
    met: bool
    sharedMediaIds: List[Id]
    sharedMediaCount: int
    overall: EvidenceOverall
    trust: float
    components: List[EvidenceComponent]


class EvidenceDimension(TypedDict):
    key: str
    name: str
    score: float
    pairs: int
    singleFigure: bool


class EvidenceScale(TypedDict):
    min: float
    max: float


class Evidence(TypedDict):
    """The measurements behind a matching or a report (a report's ``group`` and ``pairs`` are empty)."""

    kind: Literal["matching", "report"]
    scale: EvidenceScale
    #: The constants the documents quote (reference values, thresholds).
    method: Dict[str, float]
    target: EvidenceMember
    group: List[EvidenceMember]
    groupSize: int
    pairs: List[EvidencePair]
    groupOverall: Optional[float]
    dimensions: List[EvidenceDimension]
