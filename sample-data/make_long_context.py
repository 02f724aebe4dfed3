#!/usr/bin/env python3
"""Writes chartom-qa-long.jsonl: CharToM-QA items with real-length plot contexts (about
2,000 words at the "2000" setting, as the benchmark's 0 / 1000 / 2000 settings give), to
try the reviewer on items whose context does not fit a screen; and
chartom-qa-checklist.jsonl: two items on the same context with real-length checklists
(10 and 12 bonus points) and responses of about a hundred words from 3 and 2 models.

The story is our own, written for this sample (nothing is taken from the benchmark's
novels). Deterministic: the same file every run. No dependency beyond the standard
library; make_samples.py calls it too.
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# "The Keeper's Ledger": eight scenes, the last one the scene the questions are about.
SCENES = [
    """The lighthouse at Carrow Point had been kept by the Aske family for three generations, and Maren Aske, who was nineteen the winter this story begins, had never imagined that it would be kept by anyone else. Her father, Tobias, climbed the hundred and twelve steps each evening at dusk with the same slow care, one hand on the iron rail, the other holding the brass can of oil that he refused to replace with the electric pump the Board had sent two summers before. The pump sat in its crate in the storeroom, and Maren dusted the crate once a week as if it were a piece of furniture. She kept the ledger as well: the hour the lamp was lit, the hour it was put out, the ships that passed, the weather, and every small repair. Her handwriting filled the last forty pages, though the entries were still signed with her father's initials, because the Board accepted no other. The village of Carrow lay a mile inland, behind the dunes, and the only road to it flooded at the spring tides. Maren walked it twice a week for bread, letters and news. The news that winter was mostly about the new harbour master, a young man from the city named Edwin Hale, who had arrived in November with a trunk of charts and a habit of asking questions that the older fishermen found impertinent. He had already asked, the baker told Maren, how many ships the light had failed to warn in the last ten years, and he had written the answer in a small black notebook.""",
    """Maren met Edwin Hale for the first time at the harbour office, where she had gone to collect the quarterly payment for the light. He was younger than she had expected, and politer, and he counted the coins twice before he handed them over. He asked whether her father was well. She said that he was, which was almost true: Tobias had begun to lose the feeling in two fingers of his left hand, and on cold nights he let Maren carry the oil can up the last flight of steps, but he would have been ashamed to have the harbour master know it. Edwin asked whether the lamp had ever gone out. Maren said it had not, not once in her lifetime, and she saw him write something in the black notebook. On the walk home she tried to guess what he had written. She decided that he had written that the Askes were proud and would not admit to a fault, and the thought made her walk faster than the frozen road allowed. When she reached the lighthouse her father was asleep in his chair by the stove, the ledger open on his knees at a page from twenty years before, when her mother had still been alive and had kept the accounts in a round, careful hand. Maren closed the ledger without waking him and put it back on its shelf. She did not tell him about the notebook. She told him instead that the harbour master had asked after his health, and Tobias said that was civil of him, and that civil young men from the city usually wanted something.""",
    """In January a storm took the roof off the boat shed and drove a coal barge, the Linnet, onto the bar at the mouth of the estuary. The light had been lit that night at a quarter past four; Maren had written the time in the ledger herself. The barge's crew were taken off by the lifeboat before dawn, cold and frightened but alive, and the barge itself broke up over the following week, its coal washing up along the shore in black drifts that the village children gathered in buckets. The owner of the Linnet, a merchant from the city named Corbett, wrote to the Board to say that the light at Carrow Point had been dark when his barge approached the bar. His captain said the same. Edwin Hale came out to the lighthouse two days after the letter arrived, on foot, with the road half under water, and asked to see the ledger. Tobias showed it to him without a word. Edwin read the entry for the night of the storm, and the entries for the nights before and after it, and then he asked who had written them. Tobias said that he had. Maren, standing by the stove, said nothing. Edwin looked from one of them to the other for a long moment, thanked them, and left. Tobias did not speak for the rest of the evening, and when Maren went up to trim the wick at midnight she found him already there, sitting on the top step with the oil can beside him, looking out at the place where the Linnet had gone aground.""",
    """The inquiry was set for the first week of March, at the assembly rooms in the county town. A letter from the Board informed Tobias that he would be asked to give evidence, that he might bring the ledger, and that if the light was found to have failed, the keeping of Carrow Point would be offered to the Board's own men, who would install the electric pump and the new lens. Tobias read the letter twice and put it in the stove. Maren took it out again before it caught, and smoothed it flat, and hid it under the lining of her sewing box. In the weeks that followed she saw a change in her father that frightened her more than the letter had. He began to climb the stairs earlier each evening, long before dusk, and to sit beside the lamp for hours after it was lit, as if he were afraid it would go out the moment he turned his back. He forgot to eat. He asked Maren, three times in one week, whether she was certain of the time she had written on the night of the storm, and each time she told him that she was, and each time he nodded and said that was good, that was good, and went back up the stairs. She understood that he did not doubt her; he doubted himself, and the fingers of his left hand, and the evenings when he had let her carry the oil the last part of the way.""",
    """Maren went to see Edwin Hale at the harbour office a week before the inquiry. She had rehearsed what she would say on the road: that the ledger was true, that she had written the entry herself, that the light had been lit at a quarter past four and had burned until morning. She meant to tell him the whole truth, including the part about her father's hand, because she had decided that a harbour master who wrote everything down in a black notebook would find it out in any case, and it was better that he hear it from her. But when she arrived, Edwin was not alone. Corbett, the merchant, was sitting in the chair by the window, a heavy man in a heavy coat, and he was laughing at something Edwin had said. Edwin stood up when she came in, and his face did something she could not read: it was not guilt, exactly, but it was not welcome either. Corbett looked at her with open curiosity and asked whether this was the keeper's daughter. Edwin said it was. Corbett said he had heard she kept the books for the old man, and that it was a great deal of responsibility for a girl. Maren said that she had come about the quarterly payment, which was not due for another month, and Edwin, after a pause, said that he would send it out with the carrier. She left without saying any of the things she had rehearsed.""",
    """On the road home she went over the scene again and again. Edwin had been laughing with the man who was trying to take the light away from her father. He had written the number of failed ships in his notebook before the storm had even come. He had looked from her father to her in the lighthouse kitchen as if he had already guessed who wrote the ledger, and he had said nothing, which meant, she decided, that he was saving it for the inquiry, where it would do the most harm. By the time she reached the dunes she was certain that Edwin Hale was Corbett's man, that the two of them had agreed between them to blame the light for the loss of the barge, and that the harbour master's politeness was the politeness of a man who has already won. She did not tell her father any of this. She told him that the harbour master had been busy. That night, after Tobias had gone up to the lamp, she took the ledger down from its shelf and read the entry for the night of the storm by candlelight, and then every entry for a month on either side of it, and she found nothing wrong with any of them. The times were right. The weather was right. The signature at the foot of each page was her father's initials, in her hand, as it had been for three years.""",
    """Three days before the inquiry, the carrier brought the quarterly payment, a week early, in a sealed envelope. With it was a second envelope, addressed to Maren and not to her father, in a hand she did not know. Inside was a single sheet torn from a small black notebook. On it, in pencil, was a list of dates and times: the nights of the past winter, and beside each one the hour at which the light at Carrow Point had been seen from the harbour office window, a mile and a half away across the estuary. The entry for the night of the storm read: lit 4.15, seen 4.20, burning 6.00, burning 9.00, burning midnight. Below the list, in the same pencil, Edwin had written that he had kept this record since November because he had been told, when he took the post, that the light was unreliable and the keeper too old; that he had found it to be neither; and that he would give the list to the inquiry. He had added one more line, which Maren read several times: that he would not need to ask who had written the ledger, because the list agreed with it to the minute, and the inquiry had no business with anything else. Maren folded the sheet and put it in her sewing box, on top of the Board's letter, and sat for a long time with the lid open.""",
    """The inquiry took a single morning. Corbett's captain said that the light had been dark. Edwin Hale read his list aloud and laid the page from his notebook beside the ledger, and the chairman compared them line by line and found that they agreed. The captain, pressed, admitted that he had been steering by the old chart, which placed the bar a cable's length further south than it lay, and that he had not looked for the light until the barge was already in the broken water. The light at Carrow Point was found to have been lit and burning. Tobias Aske was thanked for his long service, and it was suggested, kindly, that the Board's pump might be unpacked from its crate. On the steps of the assembly rooms afterwards, Tobias shook Edwin's hand and said that he had been wrong about civil young men from the city. Maren stood a little apart. When Edwin came to her, she told him that she had thought he was Corbett's man, and that she had nearly told him everything in his office, and then had told him nothing. Edwin said that he had guessed as much from her face, and that he had been laughing with Corbett because Corbett had just told him a joke about harbour masters, and that it had not been a good joke. Maren said that she had not come about the payment. Edwin said that he knew.""",
]

CONTEXT = {
    "0": SCENES[-1],
    "1000": "\n\n".join(SCENES[4:]),
    "2000": "\n\n".join(SCENES),
}


def items():
    book = "The Keeper's Ledger (sample story)"
    out = []
    out.append({
        "id": "ledger-1", "benchmark": "chartom-qa", "book": book, "character": "Maren Aske",
        "dimension": "belief", "context": CONTEXT,
        "question": "When Maren leaves the harbour office after finding Corbett there, what does she believe about Edwin Hale?",
        "answer": "She believes he is Corbett's ally, plotting to blame the light and saving what he guessed about the ledger for the inquiry, when in fact he is keeping a record that clears her father.",
        "bonus_points": [
            "She thinks Edwin is on Corbett's side",
            "She thinks he means to blame the light for the wreck",
            "She thinks he will use the ledger's handwriting against her father",
            "Her belief is mistaken: his notebook vindicates the light",
        ],
        "responses": [
            {"model": "gpt-4o", "text": "Maren comes to believe that Edwin is working with Corbett: seeing them laugh together, she decides the harbour master's politeness hides a plan to blame the lighthouse for the Linnet's wreck, and that he has guessed she writes the ledger and will reveal it at the inquiry. She is wrong; his notebook record later proves the light was burning.",
             "judge": {"bonus": [1, 2, 3, 4], "penalty": None}},
            {"model": "llama-3-70b", "text": "Maren believes Edwin is in love with her and has come to help her father, so she is relieved to see him at the office.",
             "judge": {"bonus": [], "penalty": "Says she is relieved and thinks he loves her"}},
        ],
    })
    out.append({
        "id": "ledger-2", "benchmark": "chartom-qa", "book": book, "character": "Edwin Hale",
        "dimension": "intention", "context": CONTEXT,
        "question": "Why does Edwin send Maren the page from his notebook before the inquiry?",
        "answer": "To let her know that the light will be vindicated and that he will not expose who wrote the ledger, easing her fear before the inquiry.",
        "bonus_points": [
            "To tell her the light's record agrees with the ledger",
            "To reassure her before the inquiry",
            "To signal he will not raise who wrote the ledger",
        ],
        "responses": [
            {"model": "gpt-4o", "text": "He wants Maren to know in advance that his own observations match the ledger, so she need not fear the inquiry, and he hints that he will keep quiet about her writing the entries.",
             "judge": {"bonus": [1, 2, 3], "penalty": None}},
            {"model": "llama-3-70b", "text": "He sends it so that she can check his times against the ledger and correct any mistakes before the inquiry.",
             "judge": {"bonus": [1], "penalty": "Suggests the ledger would be altered"}},
        ],
    })
    return out


def write(name="chartom-qa-long.jsonl"):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        for it in items():
            f.write(json.dumps(it, ensure_ascii=False) + "\n")


def checklist_items():
    """Items with a real-length checklist: 10 and 12 bonus points, responses of about a
    hundred words from 3 and 2 models, the same ~2,000-word context (as the items the
    reviewer meets in the benchmark's evaluation files)."""
    book = "The Keeper's Ledger (sample story)"
    out = []
    out.append({
        "id": "ledger-3", "benchmark": "chartom-qa", "book": book, "character": "Tobias Aske",
        "dimension": "emotion", "context": CONTEXT,
        "question": "How does Tobias feel in the weeks between the Board's letter and the inquiry, and why?",
        "answer": "He is afraid: of losing the light his family has kept for three generations, and of having let it fail himself, because his hand is failing and he let Maren carry the oil; he hides his fear and his shame behind silence and ever longer watches by the lamp.",
        "bonus_points": [
            "He is afraid of losing the keeping of the light",
            "The light has been his family's for three generations",
            "He doubts himself, not Maren",
            "He is ashamed of his failing hand",
            "He fears he let the light fail on the night of the storm",
            "He burns the Board's letter rather than face it",
            "He climbs to the lamp earlier and stays longer",
            "He forgets to eat",
            "He asks Maren again and again about the time she wrote",
            "He hides his fear from the harbour master",
        ],
        "responses": [
            {"model": "gpt-4o", "text": "Tobias is frightened, though he never says so. The Board's letter threatens to take Carrow Point from the family that has kept it for three generations, and he reacts by burning the letter, then by climbing to the lamp earlier every evening and sitting beside it for hours, as if it might go out the moment he looked away. He forgets to eat. He keeps asking Maren whether she is sure of the time she wrote on the night of the storm; the narrator makes clear that he does not doubt her but himself, since his left hand has been failing and he has let her carry the oil up the last flight. His fear is mixed with shame.",
             "judge": {"bonus": [1, 2, 3, 4, 5, 6, 7, 8, 9], "penalty": None}},
            {"model": "llama-3-70b", "text": "Tobias feels angry at the Board and at Edwin Hale, whom he suspects of plotting against him. He burns the letter in a fit of rage and spends his evenings at the top of the lighthouse, determined to prove that the light never goes out. He asks Maren several times about the ledger because he suspects she may have made a mistake in the entry for the night of the storm, and he is disappointed in her. He is also proud, and refuses to let anyone see that he is worried about his health.",
             "judge": {"bonus": [6, 7, 9, 10], "penalty": "Says he suspects Maren made a mistake and is disappointed in her"}},
            {"model": "qwen2-72b", "text": "He feels anxious and guilty. He is anxious because the inquiry may end his family's keeping of the light, which has lasted three generations, and guilty because the fingers of his left hand have gone numb and he has let his daughter carry the oil can on cold nights, so he cannot be sure the light was tended as it should have been. He shows it by keeping watch at the lamp long after it is lit and by repeatedly asking Maren to confirm the time of lighting.",
             "judge": {"bonus": [1, 2, 3, 4, 5, 7, 9], "penalty": None}},
        ],
    })
    out.append({
        "id": "ledger-4", "benchmark": "chartom-qa", "book": book, "character": "Maren Aske",
        "dimension": "desire", "context": CONTEXT,
        "question": "What does Maren want when she walks to the harbour office a week before the inquiry, and what stops her?",
        "answer": "She wants to protect her father and the light by telling Edwin the whole truth herself, her father's failing hand included, before he finds it out; seeing him laughing with Corbett, she decides he is Corbett's man and says nothing but an excuse about the payment.",
        "bonus_points": [
            "She wants to tell Edwin the whole truth",
            "She wants him to hear it from her, not find it out",
            "She means to admit she wrote the ledger entry",
            "She means to tell him about her father's hand",
            "She wants to save the light for her father",
            "She has rehearsed what she will say",
            "Corbett is in the office with Edwin",
            "Edwin is laughing with Corbett",
            "Edwin's face is hard for her to read",
            "Corbett patronises her as a girl keeping the books",
            "She gives the quarterly payment as an excuse",
            "She leaves without saying what she came to say",
        ],
        "responses": [
            {"model": "gpt-4o", "text": "Maren goes to the harbour office intending to tell Edwin everything: that the ledger is accurate, that she wrote the entry for the night of the storm herself, and even that her father's hand has been failing, because she reasons that a man who writes everything in a notebook will discover it anyway and it is better he hear it from her. What stops her is finding Corbett, the merchant blaming the light, laughing with Edwin in the office. Corbett remarks that keeping the books is a lot of responsibility for a girl. Unsettled, Maren claims she came about the quarterly payment and leaves without saying any of what she rehearsed.",
             "judge": {"bonus": [1, 2, 3, 4, 6, 7, 8, 10, 11, 12], "penalty": None}},
            {"model": "llama-3-70b", "text": "Maren wants to ask Edwin for the quarterly payment early, because the family needs the money after the storm destroyed the boat shed roof. She is stopped because Edwin tells her the payment is not due for another month and that he will send it with the carrier. She also notices that Corbett is there and feels uncomfortable, so she leaves quickly.",
             "judge": {"bonus": [7, 12], "penalty": "Takes the payment excuse for her real purpose"}},
        ],
    })
    return out


def write_checklist(name="chartom-qa-checklist.jsonl"):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        for it in checklist_items():
            f.write(json.dumps(it, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write()
    write_checklist()
    print("words at 2000: %d" % len(CONTEXT["2000"].split()))
