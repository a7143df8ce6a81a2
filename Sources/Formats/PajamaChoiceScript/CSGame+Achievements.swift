extension CSGame {
    /// What ChoiceScript's achievements screen says (ui.js's printAchievements) for the game's `*achievement`s
    /// with `achieved` earned: a sentence of the score, then each earned one with its post-earned text, the
    /// hidden ones left counted, each visible one not earned with its pre-earned text; `[b]` and `[i]` kept
    /// as ChoiceScript's markup. Paragraphs, the listed achievements one paragraph each; nil for a game that
    /// declares none.
    public func achievementReport(achieved: [String]) -> [String]? {
        guard !achievements.isEmpty else { return nil }
        var unlocked: [String] = []
        var locked: [String] = []
        var achievedCount = 0, hiddenCount = 0, score = 0, totalScore = 0
        for achievement in achievements {
            totalScore += achievement.points
            let line: (String) -> String = { "[b]\(achievement.title):[/b] \($0) (\(achievement.points) points)" }
            if achieved.contains(achievement.name) {
                achievedCount += 1
                score += achievement.points
                unlocked.append(line(achievement.postEarned))
            } else if achievement.visible {
                locked.append(line(achievement.preEarned))
            } else {
                hiddenCount += 1
            }
        }
        let total = achievements.count
        let spell = Self.spell
        if achievedCount == 0 {
            let possible: String
            if hiddenCount == 0 {
                possible = "There are \(spell(total)) possible achievements"
            } else if hiddenCount == 1 {
                possible = "There are \(spell(total)) possible achievements (including one hidden achievement)"
            } else if hiddenCount == total {
                possible = "There are \(spell(total)) hidden achievements"
            } else {
                possible = "There are \(spell(total)) possible achievements (including \(spell(hiddenCount)) hidden achievements)"
            }
            return ["You haven't unlocked any achievements yet. \(possible), worth a total of \(totalScore) points."] + locked
        }
        if score == totalScore {
            let all = total == 2 ? "both achievements" : "all \(spell(total)) achievements"
            return ["Congratulations! You have unlocked \(all), earning a total of \(score) points, a perfect score."] + unlocked
        }
        let remaining = total - achievedCount
        let still: String
        if remaining == hiddenCount {
            still = remaining == 1 ? "There is still one hidden achievement remaining." : "There are still \(spell(remaining)) hidden achievements remaining."
        } else if hiddenCount > 1 {
            still = "There are still \(spell(remaining)) achievements remaining, including \(spell(hiddenCount)) hidden achievements."
        } else if hiddenCount == 1 {
            still = "There are still \(spell(remaining)) achievements remaining, including one hidden achievement."
        } else if remaining == 1 {
            still = "There is still one achievement remaining."
        } else {
            still = "There are still \(spell(remaining)) achievements remaining."
        }
        let summary = "You have unlocked \(spell(achievedCount)) out of \(spell(total)) possible achievements, earning you a score of \(score) out of a possible \(totalScore) points."
        return [summary] + unlocked + [still] + locked
    }

    /// A number in words below 100, as ChoiceScript's `spell` ("twenty-one"); digits from 100.
    static func spell(_ number: Int) -> String {
        let small = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
        let tens = ["zero", "ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        guard number >= 0, number < 100 else { return String(number) }
        if number < 20 { return small[number] }
        let ones = number % 10
        return ones == 0 ? tens[number / 10] : tens[number / 10] + "-" + small[ones]
    }
}
