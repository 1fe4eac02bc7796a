/** Sample: a meeting transcript (written for Chunkscope; the people and the project are fictional). */
export const meetingTranscript = `Weekly sync — Search quality working group
Date: Tuesday, 14:00–14:45 (recorded with consent of all participants)
Attendees: Priya Raman (chair), Tomás Ferreira, Hannah Okafor, Lukas Brenner, Mei Lin Chow
Agenda: 1) retrieval regressions from last week, 2) chunk size experiment, 3) evaluation set, 4) next steps

[00:00:12] Priya: Okay, I think everyone's here. Lukas said he might drop at half past, so let's do the regressions first. Tomás, you had the dashboard open?

[00:00:25] Tomás: Yes. So, recall at ten went from 0.81 to 0.74 on Thursday, and it stayed there. It lines up exactly with the re-index on Wednesday night. Nothing changed in the ranker, same embedding model, same prompt. The only thing that moved was the ingestion job.

[00:00:48] Hannah: Was that the job that switched the splitter library version?

[00:00:52] Tomás: That's the one. We bumped it from the old release to the current one because of the security advisory. I assumed it was a drop-in upgrade.

[00:01:03] Priya: And was it?

[00:01:05] Tomás: Mostly. But the default for keeping separators flipped. Before, the paragraph break stayed at the start of the next chunk; now it's dropped, and — this is the part that hurt — the overlap is computed after the strip, so the actual overlap we get is smaller than the setting. We asked for 200 characters of overlap. On the policy corpus the median real overlap is now 140.

[00:01:31] Mei Lin: How did you measure that?

[00:01:33] Tomás: From the offsets. I compared where each chunk starts with where the previous one ends. If you only look at the configuration you'd never see it, because the configuration still says 200.

[00:01:46] Lukas: That would explain the questions that straddle a heading. The answer sits right after the heading and the heading lands in the previous chunk.

[00:01:55] Priya: So the fix is to pin the separator behaviour explicitly rather than trusting the default?

[00:02:01] Tomás: Pin it, and add a check in the ingestion job that fails if the median measured overlap drifts more than ten percent from the setting. I'd rather the job fails loudly than quietly degrade.

[00:02:14] Hannah: Plus one. Can we also log the chunk size distribution per run? Min, median, max. If a run suddenly produces a thousand tiny chunks we'd want to know before it reaches production.

[00:02:25] Priya: Agreed. Tomás, you own the pin and the check. Hannah, the distribution logging. Moving on — the chunk size experiment. Mei Lin?

[00:02:36] Mei Lin: Right. We ran three sizes against the same evaluation set: 256, 512 and 1,024 tokens, each with about twelve percent overlap. Short version: 512 wins on answer accuracy, 256 wins on citation precision, 1,024 loses on both but is cheapest to embed.

[00:02:58] Lukas: Loses by how much?

[00:03:00] Mei Lin: Accuracy 0.71 for 1,024 versus 0.78 for 512. The long chunks dilute the embedding: a chunk that covers three topics ends up not very close to any of them. And with five chunks in the prompt, 1,024 tokens each, we're at over five thousand tokens of context for every question, which doubles the cost per answer.

[00:03:22] Priya: And 256?

[00:03:24] Mei Lin: Great precision, but it cuts tables in half. Any question about the leave table gets the header in one chunk and the rows in another. Accuracy 0.74.

[00:03:36] Hannah: Could we do 256 for prose and keep tables whole?

[00:03:40] Mei Lin: That's the structure-aware idea we parked last quarter. I think it's worth reviving, but not this sprint.

[00:03:47] Priya: Let's note it. For now, 512 with explicit separators. Everyone okay with that?

[00:03:53] Tomás: Yes.

[00:03:54] Lukas: Fine by me.

[00:03:56] Hannah: Yes, as long as we re-run the evaluation after the separator fix. The numbers Mei Lin has were taken with the broken overlap.

[00:04:04] Mei Lin: Good point — I'll re-run all three sizes once Tomás's fix is in.

[00:04:09] Priya: Third item, the evaluation set. Lukas, you wanted to raise something before you go?

[00:04:15] Lukas: Yes, quickly. Two hundred questions is too few to tell 0.76 from 0.78 apart with any confidence. I'd like to grow it to a thousand, and I want at least a third of the new questions written by people outside this group, because we keep writing questions we already know the index answers well.

[00:04:37] Hannah: I can ask the support team. They have a backlog of real customer questions with the correct answers attached.

[00:04:44] Priya: Perfect. Lukas, can you write a short guide for them so the questions are consistent?

[00:04:49] Lukas: Will do. I'll have a draft by Friday.

[00:04:53] Priya: Great. Next steps, then. Tomás: pin the separator behaviour and add the overlap drift check. Hannah: chunk size distribution in the job logs, and talk to support. Mei Lin: re-run the size experiment after the fix. Lukas: guide for writing evaluation questions. I'll write up the decision on 512 tokens and circulate it. Anything else?

[00:05:17] Mei Lin: Just that we should look at the chunks, not only the metrics. Half of what we found this week was obvious the moment someone looked at where the boundaries fell.

[00:05:26] Priya: Noted, and agreed. Thanks, everyone — see you next Tuesday.

[Recording ends 00:05:31]
`;
