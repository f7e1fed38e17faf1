"""Reading players' posts into Mare Nostrum orders: the accepted forms, the answers to mistakes, and robustness."""
from __future__ import annotations

import random
import string
import tomllib
from pathlib import Path

import pytest

from engine.mare_nostrum.orders import (
    Alliance,
    Amphibious,
    Attack,
    Build,
    EventChoice,
    GrainDistribution,
    NavalBattle,
    Order,
    Pass,
    PeaceTreaty,
    RaiseFleet,
)
from engine.mare_nostrum.parse import ParsedLine, Vocabulary, parse_line, parse_post

RULESET = Path(__file__).resolve().parents[3] / "data" / "rulesets" / "mare-nostrum.toml"

PROVINCES = {
    "Latium": ("Rome", "Roma", "Lazio"),
    "Etruria": ("Tuscany",),
    "Apulia": ("Puglia",),
    "Campania": (),
    "Bruttium": ("Calabria",),
    "Macedonia": ("Macedon",),
    "Mauretania": (),
    "Gallia Cisalpina": ("Cisalpine Gaul",),
    "Baetica": ("Andalusia",),
}
SEAS = {
    "Mare Tyrrhenum": ("Tyrrhenian Sea", "Tyrrhenian"),
    "Mare Adriaticum": ("Adriatic Sea", "Adriatic"),
}


@pytest.fixture(scope="module")
def vocab() -> Vocabulary:
    ruleset = tomllib.loads(RULESET.read_text(encoding="utf-8"))
    return Vocabulary.from_names(
        provinces=PROVINCES,
        seas=SEAS,
        nations={n["name"]: tuple(n.get("aliases", ())) for n in ruleset["nations"]},
        invaders={i["invader"]: tuple(i.get("aliases", ())) for i in ruleset["invasions"]},
    )


def order_of(line: str, vocab: Vocabulary) -> Order:
    parsed = parse_post(line, vocab)
    assert len(parsed) == 1, parsed
    assert parsed[0].error is None, parsed[0].error
    assert parsed[0].order is not None
    return parsed[0].order


def error_of(line: str, vocab: Vocabulary) -> str:
    parsed = parse_post(line, vocab)
    assert len(parsed) == 1, parsed
    assert parsed[0].order is None, parsed[0].order
    assert parsed[0].error is not None
    return parsed[0].error


# ---------------------------------------------------------------------------------------------------
# Accepted forms

FORMS: list[tuple[str, Order]] = [
    # Buildings
    ("build fortification in Latium", Build("fortification", "Latium")),
    ("build fortifications in Rome", Build("fortification", "Latium")),
    ("build fort in Tuscany", Build("fortification", "Etruria")),
    ("build a fortress in Apulia", Build("fortification", "Apulia")),
    ("build walls in Puglia", Build("fortification", "Apulia")),
    ("fortify Campania", Build("fortification", "Campania")),
    ("Fortify the Campania.", Build("fortification", "Campania")),
    ("build suburbs in Calabria", Build("suburbs", "Bruttium")),
    ("build suburb at Lazio", Build("suburbs", "Latium")),
    ("build temple in Latium", Build("temple", "Latium")),
    ("BUILD A TEMPLE IN LATIUM", Build("temple", "Latium")),
    ("build temple Latium", Build("temple", "Latium")),
    ("build a temple in Gallia Cisalpina", Build("temple", "Gallia Cisalpina")),
    ("build temple in Cisalpine Gaul", Build("temple", "Gallia Cisalpina")),
    ("build temple in gal cis", Build("temple", "Gallia Cisalpina")),
    ("build temple in LÁTIUM", Build("temple", "Latium")),
    # Fleets
    ("raise fleet in Mare Tyrrhenum", RaiseFleet("Mare Tyrrhenum")),
    ("raise a fleet in the Tyrrhenian Sea", RaiseFleet("Mare Tyrrhenum")),
    ("raise a new fleet in tyrrh", RaiseFleet("Mare Tyrrhenum")),
    ("build fleet in the Adriatic", RaiseFleet("Mare Adriaticum")),
    ("build a fleet in Mare Adriaticum", RaiseFleet("Mare Adriaticum")),
    # Diplomacy and politics
    ("peace treaty with Gauls", PeaceTreaty("Gauls")),
    ("peace with the Gauls", PeaceTreaty("Gauls")),
    ("peace treaty with the Gallic", PeaceTreaty("Gauls")),
    ("offer peace to the Gauls", PeaceTreaty("Gauls")),
    ("propose a peace treaty to Carthage", PeaceTreaty("Carthaginians")),
    ("peace with Macedonia", PeaceTreaty("Macedonians")),  # a nation's alias, in a nation's slot
    ("alliance with Samnites against Apulia", Alliance("Samnites", "Apulia")),
    ("ally with the Samnites against Puglia", Alliance("Samnites", "Apulia")),
    ("ally with Samnium against Apulia", Alliance("Samnites", "Apulia")),
    ("ally with the Samnites to attack Apulia", Alliance("Samnites", "Apulia")),
    ("ally with the Samnites and attack Apulia", Alliance("Samnites", "Apulia")),
    ("offer an alliance to the Iberians against Baetica", Alliance("Iberians", "Baetica")),
    ("grain distribution", GrainDistribution()),
    ("Grain distribution!", GrainDistribution()),
    ("distribute grain", GrainDistribution()),
    ("distribute the grain to the people", GrainDistribution()),
    # Land battles
    ("attack Apulia from Campania", Attack("Apulia", "Campania")),
    ("Attack the Apulia from my Campania", Attack("Apulia", "Campania")),
    ("attack Apulia with the army from Campania", Attack("Apulia", "Campania")),
    ("attack Apulia with the army of Campania", Attack("Apulia", "Campania")),
    ("attack from Campania to Apulia", Attack("Apulia", "Campania")),
    ("land battle against Apulia from Campania", Attack("Apulia", "Campania")),
    ("invade Apulia from Rome", Attack("Apulia", "Latium")),
    ("attack Macedonia from Rome", Attack("Macedonia", "Latium")),  # a province, though also a nation's alias
    # Naval battles
    ("naval battle against Romans in Mare Tyrrhenum", NavalBattle("Romans", "Mare Tyrrhenum")),
    ("naval battle against pirates in Mare Adriaticum", NavalBattle("Pirates", "Mare Adriaticum")),
    ("naval battle against the pirates in the Adriatic", NavalBattle("Pirates", "Mare Adriaticum")),
    ("naval attack on the Romans in the Tyrrhenian Sea", NavalBattle("Romans", "Mare Tyrrhenum")),
    ("naval battle in the Adriatic against the Gallic fleet", NavalBattle("Gauls", "Mare Adriaticum")),
    ("naval battle against Rome in the Adriatic", NavalBattle("Romans", "Mare Adriaticum")),
    ("sea battle vs Carthage in the Adriatic", NavalBattle("Carthaginians", "Mare Adriaticum")),
    ("attack the Roman fleet in the Adriatic", NavalBattle("Romans", "Mare Adriaticum")),
    ("attack the pirates in the Tyrrhenian", NavalBattle("Pirates", "Mare Tyrrhenum")),
    # Amphibious attacks
    ("amphibious attack on Apulia from Campania through Mare Adriaticum", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    ("amphibious attack on Apulia from Campania via the Adriatic", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    ("amphibious attack on Apulia via the Adriatic from Campania", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    ("amphibious assault across the Adriatic from Campania on Apulia", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    ("amphibious landing in Apulia from Campania by sea through the Adriatic", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    ("amphibious attack on Apulia from Campania in the Adriatic", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    ("attack Apulia from Campania through the Adriatic", Amphibious("Apulia", "Campania", "Mare Adriaticum")),
    # The end of the turn
    ("pass", Pass()),
    ("Pass.", Pass()),
    ("end turn", Pass()),
    ("end of turn", Pass()),
    ("End of my turn.", Pass()),
    ("done", Pass()),
    ("Done for this turn", Pass()),
    ("no more actions", Pass()),
    ("no more orders this turn", Pass()),
    # Event choices
    ("earthquake on Latium", EventChoice("earthquake", "Latium")),
    ("earthquake in Etruria", EventChoice("earthquake", "Etruria")),
    ("destroy fortification in Apulia", EventChoice("earthquake", "Apulia")),
    ("destroy the fortifications of Apulia", EventChoice("earthquake", "Apulia")),
    ("Earthquake: destroy the fortification in Apulia", EventChoice("earthquake", "Apulia")),
    ("great blaze on Latium", EventChoice("great_blaze", "Latium")),
    ("Great Blaze in Rome", EventChoice("great_blaze", "Latium")),
    ("burn temple in Latium", EventChoice("great_blaze", "Latium")),
    ("burn the temple of Latium", EventChoice("great_blaze", "Latium")),
    ("destroy temple in Latium", EventChoice("great_blaze", "Latium")),
    ("defensive artworks in Latium", EventChoice("defensive_artworks", "Latium")),
    ("defensive artworks on Etruria", EventChoice("defensive_artworks", "Etruria")),
]


@pytest.mark.parametrize(("line", "expected"), FORMS, ids=[line for line, _ in FORMS])
def test_accepted_forms(vocab: Vocabulary, line: str, expected: Order) -> None:
    assert order_of(line, vocab) == expected


@pytest.mark.parametrize(
    "line",
    [
        "1. build temple in Latium",
        "2) build temple in Latium",
        "- build temple in Latium",
        "* build temple in Latium",
        "• build temple in Latium",
        "**build temple in Latium**",
        "build temple in Latium please",
        "Build temple in Latium, please!",
        "please build the temple in Latium",
        "build temple in Latium. It will please the gods.",
        "build temple in Latium (we need the money)",
        "build temple in Latium - finally",
        "Action 1: build temple in Latium",
        "Romans: build temple in Latium",
        "   build   temple   in   Latium   ",
    ],
)
def test_decorations_around_an_order(vocab: Vocabulary, line: str) -> None:
    assert order_of(line, vocab) == Build("temple", "Latium")


def test_a_keyword_prefix_stands_for_the_keyword(vocab: Vocabulary) -> None:
    assert order_of("att Apulia from Campania", vocab) == Attack("Apulia", "Campania")
    assert order_of("amph attack on Apulia from Campania via Adriatic", vocab) == Amphibious(
        "Apulia", "Campania", "Mare Adriaticum"
    )
    assert order_of("bui temple in Latium", vocab) == Build("temple", "Latium")


def test_orders_are_plain_data(vocab: Vocabulary) -> None:
    order = order_of("amphibious attack on Apulia from Campania via the Adriatic", vocab)
    assert order.to_dict() == {"kind": "amphibious", "province": "Apulia", "base": "Campania", "sea": "Mare Adriaticum"}
    assert not order_of("great blaze on Latium", vocab).costs_action


# ---------------------------------------------------------------------------------------------------
# Not orders at all


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "Hello everyone!",
        "Good luck, may the best general win",
        "I will attack Apulia next turn",
        "> attack Apulia from Campania",
        "/order attack Apulia from Campania",
        "For Rome!",
        "Great game everyone",
        "All right, Rome is ready",
        "The end of Rome",
        "end",
        "No way",
        "Land of the free",
        "Burn them all!",
        "Place your bets on Rome",
        "Praise the gods",
        "Blame Rome for this",
        "done deal",
        "lol",
        "...",
        "1.",
    ],
)
def test_table_talk_is_left_alone(vocab: Vocabulary, line: str) -> None:
    assert parse_post(line, vocab) == []
    assert parse_line(line, vocab) is None


def test_a_post_without_orders(vocab: Vocabulary) -> None:
    assert parse_post("Hi all,\n\nthe Romans are too strong.\n> quoted\n/status\n", vocab) == []


# ---------------------------------------------------------------------------------------------------
# Mistakes and their answers


def test_near_miss_of_a_keyword(vocab: Vocabulary) -> None:
    assert error_of("bild temple in Latium", vocab) == "unknown order 'bild': did you mean 'build'?"
    assert error_of("atack Apulia from Campania", vocab) == "unknown order 'atack': did you mean 'attack'?"
    assert error_of("amphibous attack on Apulia from Campania via the Adriatic", vocab) == (
        "unknown order 'amphibous': did you mean 'amphibious'?"
    )
    assert error_of("Rally the Samnites against Apulia", vocab) == "unknown order 'Rally': did you mean 'ally'?"


def test_unknown_building(vocab: Vocabulary) -> None:
    assert error_of("build barracks in Latium", vocab) == (
        "'build barracks in Latium': you can build a fortification, suburbs or a temple (write: build temple in Latium)"
    )
    assert error_of("build tempel in Rome", vocab) == (
        "'build tempel in Rome': did you mean 'temple'? You can build a fortification, suburbs or a temple "
        "(write: build temple in Latium)"
    )
    assert error_of("build in Latium", vocab) == (
        "'build in Latium': say what you build: a fortification, suburbs or a temple (write: build temple in Latium)"
    )


def test_missing_parts(vocab: Vocabulary) -> None:
    assert error_of("attack Apulia", vocab) == "'attack Apulia': say where you attack from: attack Apulia from <province>"
    assert error_of("attack from Campania", vocab) == (
        "'attack from Campania': say which province you attack: attack <province> from Campania"
    )
    assert error_of("Attack!", vocab) == (
        "'Attack': say which province you attack and where you attack from: attack <province> from <province>"
    )
    assert error_of("build temple", vocab) == "'build temple': say where: build temple in <province>"
    assert error_of("raise fleet", vocab) == "'raise fleet': say in which sea: raise fleet in <sea>"
    assert error_of("peace treaty", vocab) == "'peace treaty': say with which nation: peace treaty with <nation>"
    assert error_of("ally with Samnites", vocab) == (
        "'ally with Samnites': say which province the allied army attacks: ally with Samnites against <province>"
    )
    assert error_of("alliance against Apulia", vocab) == (
        "'alliance against Apulia': say with which invader force: ally with <invader force> against Apulia"
    )
    assert error_of("naval battle against Romans", vocab) == (
        "'naval battle against Romans': say in which sea: naval battle against Romans in <sea>"
    )
    assert error_of("naval battle in the Adriatic", vocab) == (
        "'naval battle in the Adriatic': say against whom: naval battle against <nation or pirates> in Mare Adriaticum"
    )
    assert error_of("amphibious attack on Apulia from Campania", vocab) == (
        "'amphibious attack on Apulia from Campania': say through which sea: "
        "amphibious attack on Apulia from Campania through <sea>"
    )
    assert error_of("amphibious attack on Apulia", vocab) == (
        "'amphibious attack on Apulia': say where you attack from and through which sea: "
        "amphibious attack on Apulia from <province> through <sea>"
    )
    assert error_of("earthquake", vocab) == "'earthquake': say which province: earthquake on <province>"


def test_name_of_the_wrong_kind(vocab: Vocabulary) -> None:
    assert error_of("attack Apulia from Mare Tyrrhenum", vocab) == "'Mare Tyrrhenum' is a sea, not a province"
    assert error_of("build temple in the Tyrrhenian Sea", vocab) == (
        "'Tyrrhenian Sea' is a sea (Mare Tyrrhenum), not a province"
    )
    assert error_of("attack Romans from Campania", vocab) == "'Romans' is a nation, not a province"
    assert error_of("build fleet in Latium", vocab) == "'Latium' is a province, not a sea"
    assert error_of("peace with Samnites", vocab) == "'Samnites' is an invader force, not a nation"
    assert error_of("peace with Apulia", vocab) == "'Apulia' is a province, not a nation"
    assert error_of("ally with Romans against Apulia", vocab) == "'Romans' is a nation, not an invader force"
    assert error_of("naval battle against Apulia in the Adriatic", vocab) == "'Apulia' is a province, not a nation"


def test_unknown_and_ambiguous_names(vocab: Vocabulary) -> None:
    assert error_of("attack Latum from Campania", vocab) == "unknown province 'Latum': did you mean Latium?"
    assert error_of("attack Ma from Campania", vocab) == "'Ma' could be Macedonia or Mauretania: write more of the name"
    assert error_of("raise fleet in the sea", vocab) == (
        "'sea' could be Mare Tyrrhenum or Mare Adriaticum: write more of the name"
    )
    assert error_of("peace with the Xyz", vocab) == (
        "unknown nation 'Xyz'; nations are: Carthaginians, Gauls, Macedonians, Ptolemaics, Romans, Seleucids"
    )


def test_other_form_errors(vocab: Vocabulary) -> None:
    assert error_of("raise army in Latium", vocab) == (
        "'raise army in Latium': you can raise a fleet in a sea (write: raise fleet in <sea>)"
    )
    assert error_of("grain distribution in Rome", vocab) == (
        "'grain distribution in Rome': grain distribution takes no province or target (write: grain distribution)"
    )
    assert error_of("distribute the loot", vocab) == (
        "'distribute the loot': you can distribute grain (write: grain distribution)"
    )
    assert error_of("pass the wine", vocab) == "'pass the wine': to end your turn write just: pass"
    assert error_of("destroy fleet in the Adriatic", vocab) == (
        "'destroy fleet in the Adriatic': you can destroy a fortification (Earthquake) or a temple (Great Blaze) "
        "(write: destroy fortification in <province>)"
    )
    assert error_of("defensive line in Latium", vocab) == (
        "'defensive line in Latium': the event's choice is written: defensive artworks in Latium"
    )
    assert error_of("build temple in Latium from Etruria", vocab) == (
        "'build temple in Latium from Etruria': did not expect 'from Etruria' here (write: build temple in Latium)"
    )


@pytest.mark.parametrize(
    ("line", "first", "second"),
    [
        ("build temple in Latium and attack Apulia from Campania", "build temple in Latium", "attack Apulia from Campania"),
        ("build temple in Latium, fortify Etruria", "build temple in Latium", "fortify Etruria"),
        ("Build temple in Latium. Attack Apulia from Campania.", "Build temple in Latium", "Attack Apulia from Campania"),
    ],
)
def test_one_order_per_line(vocab: Vocabulary, line: str, first: str, second: str) -> None:
    error = error_of(line, vocab)
    assert "one order per line" in error
    assert f"write '{first}' and '{second}' on separate lines" in error


# ---------------------------------------------------------------------------------------------------
# Whole posts


def test_a_post_mixing_orders_and_talk_keeps_line_numbers(vocab: Vocabulary) -> None:
    post = "\n".join(
        [
            "Hail, fellow generals!",  # 1
            "",  # 2
            "My orders for this turn:",  # 3
            "1. Build a temple in Rome",  # 4
            "2. atack Apulia from Campania",  # 5
            "> last turn you said you would not attack",  # 6
            "3. Raise a fleet in the Tyrrhenian Sea.",  # 7
            "That should do it. Vale!",  # 8
            "Pass",  # 9
        ]
    )
    assert parse_post(post, vocab) == [
        ParsedLine(4, "1. Build a temple in Rome", order=Build("temple", "Latium")),
        ParsedLine(5, "2. atack Apulia from Campania", error="unknown order 'atack': did you mean 'attack'?"),
        ParsedLine(7, "3. Raise a fleet in the Tyrrhenian Sea.", order=RaiseFleet("Mare Tyrrhenum")),
        ParsedLine(9, "Pass", order=Pass()),
    ]


def test_windows_line_ends(vocab: Vocabulary) -> None:
    parsed = parse_post("pass\r\n\r\ngrain distribution\r\n", vocab)
    assert [(p.line_no, p.order) for p in parsed] == [(1, Pass()), (3, GrainDistribution())]


def test_parsed_line_has_exactly_one_outcome(vocab: Vocabulary) -> None:
    good, bad = parse_post("pass\nattack Apulia", vocab)
    assert good.ok and good.error is None
    assert not bad.ok and bad.order is None


# ---------------------------------------------------------------------------------------------------
# Robustness


def _fuzz_words(vocab: Vocabulary) -> list[str]:
    names = [name for index in vocab.indices for name in index.names]
    keywords = (
        "build raise fortify peace treaty offer propose alliance ally grain distribute distribution attack invade "
        "land naval sea amphibious pass end done no more actions earthquake great blaze burn destroy defensive "
        "artworks fleet temple suburbs fort battle army pirates in at from through via across against with on to "
        "into and by of the a my please bild atack amphibous att tyrrh Ma Rome Tyrrhenian Sea"
    ).split()
    punctuation = ["1.", "-", "*", "•", ">", "/", ":", ",", ".", "!", "(", ")", "—", "'", "’", "É", "\u0301", "🙂"]
    return names + keywords + punctuation


def test_fuzz_never_raises(vocab: Vocabulary) -> None:
    rng = random.Random(20100414)
    words = _fuzz_words(vocab)
    alphabet = string.printable + "ÉéàüßΣλ\u0301’•—–\u2028\x00\ufeff🙂"
    for case in range(5000):
        if case % 2:
            lines = [
                " ".join(
                    rng.choice(words) if rng.random() < 0.85 else "".join(rng.choices(alphabet, k=rng.randint(1, 6)))
                    for _ in range(rng.randint(0, 12))
                )
                for _ in range(rng.randint(1, 4))
            ]
            text = "\n".join(lines)
        else:
            text = "".join(rng.choices(alphabet, k=rng.randint(0, 120)))
        parsed = parse_post(text, vocab)
        assert isinstance(parsed, list)
        for line in parsed:
            assert isinstance(line, ParsedLine)
            assert (line.order is None) != (line.error is None), (text, line)
            assert line.line_no >= 1
