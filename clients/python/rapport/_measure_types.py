"""The measurements of a speaker (``files.metrics``, ``entities.metrics``, and each member of a
result's evidence; docs/analysis.md), field for field as the service's schema gives them
(re-exported by ``rapport.types``, where the drift test reads them and compares them with the
service's document). Seconds, shares 0 to 1, pitch in semitones above 27.5 Hz, loudness in dBFS;
``None`` when not measured."""
from __future__ import annotations

from typing import Dict, Literal, Optional, TypedDict


class _LanguageMeasuresRequired(TypedDict):
    words: int
    #: Words per minute of speech.
    wordsPerMinute: Optional[float]
    #: Questions per 100 words.
    questionRate: float
    #: Per 100 words; None: not measured (English only), as for the three below.
    hedgeRate: Optional[float]
    firstPersonSingularRate: Optional[float]
    firstPersonPluralRate: Optional[float]
    #: VADER compound, -1 to 1.
    sentiment: Optional[float]
    #: Percent of words in each function-word category.
    functionWords: Optional[Dict[str, float]]


class LanguageMeasures(_LanguageMeasuresRequired, total=False):
    """What the words say, where a transcript exists."""

    #: "en": the word lists were applied; None: the transcript is not in English, the lexical
    #: measures are None (not measured, English only).
    lexicon: Optional[Literal["en"]]


class SpeakerMeasures(TypedDict):
    """One speaker's measures in one media, or an entity's profile over its media."""

    speechSec: float
    #: Share of the recording's speech, 0 to 1.
    talkShare: float
    turns: int
    medianTurnSec: Optional[float]
    longestTurnSec: Optional[float]
    #: Per minute of speech.
    pausesPerMin: Optional[float]
    medianPauseSec: Optional[float]
    #: Syllables per second.
    speakingRateSylPerSec: Optional[float]
    #: Syllables per second of phonation.
    articulationRateSylPerSec: Optional[float]
    pitchMedianSt: Optional[float]
    #: Semitones, 5th to 95th percentile.
    pitchRangeSt: Optional[float]
    #: Semitones, standard deviation.
    pitchVariabilitySt: Optional[float]
    loudnessMeanDb: Optional[float]
    loudnessVariabilityDb: Optional[float]
    medianGapBeforeTurnSec: Optional[float]
    #: Counts, as the two below.
    interruptionsMade: Optional[float]
    interruptionsReceived: Optional[float]
    backchannels: Optional[float]
    overlapSec: Optional[float]
    #: None without a transcript.
    language: Optional[LanguageMeasures]
