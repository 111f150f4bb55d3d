"""The API's resource shapes as ``TypedDict`` s, field for field as the service's OpenAPI document
gives them (the drift test, tests/test_drift.py, compares each response type's required, optional
and nullable fields with ``GET /v1/openapi.json``). Responses are the parsed JSON: read them as
``media["id"]``. Keys keep the API's camelCase spelling.
"""
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

# Credits, feedback, webhook deliveries and events, the workspace: defined in _account_types.py.
from ._account_types import (
    CreditBalance as CreditBalance,
    CreditTransaction as CreditTransaction,
    Feedback as Feedback,
    DeliveryAttempt as DeliveryAttempt,
    WebhookDelivery as WebhookDelivery,
    WorkspaceQuotaFigures as WorkspaceQuotaFigures,
    Workspace as Workspace,
    ApiKey as ApiKey,
    CreatedApiKey as CreatedApiKey,
    SigningSecret as SigningSecret,
    WebhookEvent as WebhookEvent,
)
from ._account_types import Id as Id
from ._account_types import Timestamp as Timestamp

# A speaker's measurements: defined in _measure_types.py.
from ._measure_types import (
    LanguageMeasures as LanguageMeasures,
    SpeakerMeasures as SpeakerMeasures,
)

# The blocks of a result document's sections: defined in _block_types.py.
from ._block_types import (
    Block as Block,
    CardBlock as CardBlock,
    GridBlock as GridBlock,
    IllustrationBlock as IllustrationBlock,
    TextBlock as TextBlock,
)

# The evidence behind a result: defined in _evidence_types.py.
from ._evidence_types import (
    EntrainmentFeature as EntrainmentFeature,
    EntrainmentMeasure as EntrainmentMeasure,
    EvidenceAppearance as EvidenceAppearance,
    EvidenceMember as EvidenceMember,
    EntrainmentCell as EntrainmentCell,
    EvidenceFigures as EvidenceFigures,
    EvidenceComponent as EvidenceComponent,
    EvidenceOverall as EvidenceOverall,
    EvidencePair as EvidencePair,
    EvidenceDimension as EvidenceDimension,
    EvidenceScale as EvidenceScale,
    Evidence as Evidence,
)


class ErrorDetail(TypedDict):
    """One field at fault: a JSON Pointer into the request and a message."""

    path: str
    message: str


# ---- matching and report requests ----

SelectorStrategy = Literal["dominant", "timerange", "entity_id", "magic_hint", "speaker_index"]


class TimeRange(TypedDict, total=False):
    start_seconds: Optional[float]
    end_seconds: Optional[float]


class _SelectorRequired(TypedDict):
    strategy: SelectorStrategy


class Selector(_SelectorRequired, total=False):
    on_miss: Literal["fallback_dominant", "error"]
    entity_id: Optional[str]
    hint: Optional[str]
    speaker_index: Optional[int]
    timerange: Optional[TimeRange]


class EntityReference(TypedDict):
    type: Literal["entity_id"]
    entityId: str


class MediaTarget(TypedDict):
    type: Literal["media_target"]
    mediaId: str
    selector: Selector


Member = Union[EntityReference, MediaTarget]


class _WebhookSpecRequired(TypedDict):
    url: str


class WebhookSpec(_WebhookSpecRequired, total=False):
    headers: Dict[str, str]


# ---- jobs ----

JobStatus = Literal["queued", "running", "succeeded", "failed"]
JobStage = Literal["queued", "preparing_media", "detecting_speech", "identifying_speakers", "measuring_behavior",
                   "resolving_members", "scoring", "writing_result", "done"]


class _JobReceiptRequired(TypedDict):
    jobId: Id
    status: Literal["queued", "running"]


class JobReceipt(_JobReceiptRequired, total=False):
    stage: str
    estimatedWaitSec: float


class JobError(TypedDict):
    code: str
    message: str


class _JobRequired(TypedDict):
    id: Id
    type: Literal["matching", "report"]
    status: JobStatus
    #: Typed open (a ``JobStage`` or any string), so that a stage added later is no type error.
    stage: Union[JobStage, str]
    progress: float
    createdAt: Timestamp
    startedAt: Optional[Timestamp]
    finishedAt: Optional[Timestamp]
    resultId: Optional[Id]
    error: Optional[JobError]


class Job(_JobRequired, total=False):
    label: str
    estimatedWaitSec: float


class JobEvent(TypedDict):
    """One server-sent event of a job's progress stream: send ``id`` back as ``last_event_id``."""

    id: Optional[str]
    event: Literal["job.updated", "job.succeeded", "job.failed"]
    job: Job


# ---- results ----


class _ResolvedMemberRequired(TypedDict):
    source: Member


class ResolvedMember(_ResolvedMemberRequired, total=False):
    entityId: str
    resolvedLabel: Optional[str]


class Section(TypedDict):
    section_title: str
    #: One block, a list of them, or ``{}`` (a section without content).
    section_content: Union[Block, List[Block], Dict[str, Any]]


class ResultDocument(TypedDict):
    schemaVersion: Literal[1]
    title: str
    summary: str
    sections: List[Section]


class MatchingOutput(TypedDict):
    template: Literal["matching"]


class ReportOutput(TypedDict):
    template: Literal["report"]


class _MatchingPayloadRequired(TypedDict):
    id: Id
    context: Literal["behavioral_compatibility"]
    createdAt: Timestamp
    output: MatchingOutput
    target: ResolvedMember
    group: List[ResolvedMember]


class MatchingPayload(_MatchingPayloadRequired, total=False):
    jobId: Id
    label: str
    json: Optional[ResultDocument]
    markdown: Optional[str]


class _ReportPayloadRequired(TypedDict):
    id: Id
    context: Literal["behavioral_profile"]
    createdAt: Timestamp
    output: ReportOutput
    target: ResolvedMember


class ReportPayload(_ReportPayloadRequired, total=False):
    jobId: Id
    label: str
    json: Optional[ResultDocument]
    markdown: Optional[str]


# ---- media ----


class Speaker(TypedDict):
    index: int
    entityId: Optional[Id]
    speechSec: float
    firstSpeechSec: float
    label: Optional[str]
    enough: bool


class SpeakerHints(TypedDict, total=False):
    numSpeakers: int
    minSpeakers: int
    maxSpeakers: int


class HintNotMetWarning(TypedDict):
    """The speaker-count hint could not be met (decisions section 15): what was asked, how many were found, and why."""

    code: Literal["hint_not_met"]
    asked: SpeakerHints
    found: int
    reason: str


class SpeakerCountUncertainWarning(TypedDict):
    """A count found without a hint that the analysis is unsure of: maybe fewer, more, or either."""

    code: Literal["speaker_count_uncertain"]
    found: int
    maybe: Literal["fewer", "more", "either"]
    reason: str


#: What an analysis says of itself, told apart by ``code``.
AnalysisWarning = Union[HintNotMetWarning, SpeakerCountUncertainWarning]


MediaAnalysisStage = Literal["detecting_speech", "identifying_speakers", "measuring_behavior"]


class _MediaAnalysisRequired(TypedDict):
    status: Literal["pending", "running", "ready", "failed"]
    speakers: List[Speaker]
    warnings: List[AnalysisWarning]
    engineVersion: Optional[str]
    speakerHints: Optional[SpeakerHints]
    #: The step a running analysis is in; None unless ``status`` is ``running``.
    stage: Optional[MediaAnalysisStage]
    progress: float


class MediaAnalysis(_MediaAnalysisRequired, total=False):
    error: JobError


class _MediaRequired(TypedDict):
    id: Id
    kind: Literal["audio", "video", "transcript"]
    filename: str
    contentType: str
    sizeBytes: int
    sha256: str
    durationSec: Optional[float]
    hasTranscript: bool
    analysis: MediaAnalysis
    createdAt: Timestamp


class Media(_MediaRequired, total=False):
    label: str


class _UploadedMediaRequired(_MediaRequired):
    duplicate: bool


class UploadedMedia(_UploadedMediaRequired, total=False):
    """The answer to ``files.upload``: the media, and ``duplicate`` True (HTTP 200) when the
    workspace already had media with these bytes (same SHA-256): then it is that media, nothing
    was stored, analysed or charged, and the label and hints sent were not applied (decisions §18)."""

    label: str


class MediaEvent(TypedDict):
    """One event of a media analysis stream: the media's state; send ``id`` back to resume."""

    id: Optional[str]
    event: Literal["media.updated", "media.ready", "media.failed"]
    media: Media


class ContentLink(TypedDict):
    url: str
    expiresAt: Timestamp


class Segment(TypedDict):
    speaker: int
    start: float
    end: float


class Diarization(TypedDict):
    mediaId: Id
    durationSec: Optional[float]
    segments: List[Segment]




class SpeakerMetrics(TypedDict):
    index: int
    entityId: Optional[Id]
    label: Optional[str]
    metrics: SpeakerMeasures


class NotMeasured(TypedDict):
    measures: List[str]
    reason: str


class _MediaMetricsRequired(TypedDict):
    mediaId: Id
    speakers: List[SpeakerMetrics]


class MediaMetrics(_MediaMetricsRequired, total=False):
    # Decisions §19: a transcript on its own says which measures it has no audio for ("no audio").
    notMeasured: NotMeasured


class Appearance(TypedDict):
    mediaId: Id
    speakerIndex: int
    speechSec: float


class MeasuredAppearance(TypedDict):
    mediaId: Id
    speakerIndex: int
    metrics: SpeakerMeasures


class EntityMetrics(TypedDict):
    entityId: Id
    label: Optional[str]
    metrics: Optional[SpeakerMeasures]
    appearances: List[MeasuredAppearance]


# ---- entities ----


class Entity(TypedDict):
    id: Id
    label: Optional[str]
    #: What people read: the label, else "Speaker 2 in interview.wav".
    name: str
    tags: List[str]
    speechSec: float
    enough: bool
    appearances: List[Appearance]
    createdAt: Timestamp
    updatedAt: Timestamp
