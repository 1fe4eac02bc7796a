/** Sample: an employee policy handbook in markdown (written for Chunkscope; the company is fictional). */
export const policyHandbook = `# Northwind Labs Employee Handbook

Version 4.2 · Applies to all employees, contractors and interns of Northwind Labs GmbH and its subsidiaries.

This handbook explains how we work together: the hours we keep, how we take time off, how we travel, how we protect the information entrusted to us, and what to do when something goes wrong. It does not replace your employment contract; where the two disagree, the contract wins. If anything here is unclear, ask People Operations before you act, not after.

## 1. Working hours and location

### 1.1 Core hours

Our core collaboration window is 10:00 to 15:00 in your home time zone, Monday to Friday. Outside that window you organise your own day. Meetings that involve more than one time zone should rotate their slot so that the same people are not always joining early or late.

### 1.2 Remote and hybrid work

You may work from home, from one of our three offices, or from a coworking space we reimburse. Working from another country for more than 20 days in a calendar year needs written approval from People Operations, because it can create tax and social-security obligations for you and for the company.

When you work remotely you are expected to:

- keep your status in the chat tool current, so colleagues know whether to expect a quick reply;
- join video calls with your camera on for the first few minutes of a meeting when you can;
- use a private space for calls that touch customer data or personnel matters.

### 1.3 Overtime

We do not reward long hours. If you regularly work more than 45 hours a week, tell your manager: that is a planning problem we need to fix, not a badge of honour. Overtime that your manager asked for in advance is compensated with time off at a rate of one hour for each hour worked.

## 2. Time off

### 2.1 Annual leave

Full-time employees receive 28 days of paid annual leave per calendar year, plus public holidays at their place of work. Part-time employees receive leave in proportion to their contracted days. Up to five unused days may be carried into the first quarter of the following year; anything beyond that lapses on 31 March.

Book leave in the HR portal at least two weeks ahead for absences longer than three days. Your manager approves or declines within five working days; silence counts as approval.

### 2.2 Leave entitlements at a glance

| Type of leave | Paid | Entitlement | Notice required | Evidence |
|---|---|---|---|---|
| Annual leave | Yes | 28 days per year | 2 weeks for more than 3 days | None |
| Sick leave | Yes | As needed, full pay for 6 weeks | Tell your manager by 10:00 | Doctor's note from day 4 |
| Parental leave | Partly | Up to 36 months per child | 7 weeks | Birth or adoption certificate |
| Bereavement | Yes | 5 days (close family), 2 days (others) | As soon as practical | None |
| Volunteering | Yes | 2 days per year | 1 week | Name of the organisation |
| Study leave | Yes | Up to 5 days per year | 4 weeks | Course enrolment |

### 2.3 Sick leave

If you are ill, rest. Tell your manager before 10:00 on the first day by any channel you like; you do not need to say what is wrong. From the fourth consecutive calendar day of illness we need a doctor's certificate. Sick days during booked annual leave are treated as sick leave if you send a certificate, and the annual leave is returned to you.

## 3. Travel and expenses

### 3.1 Booking travel

Book trains for journeys under five hours and flights only when the train would take longer. Economy class is the default for flights under eight hours; for longer flights you may book premium economy. Hotels should be within the city limits we publish each year; anything above them needs your manager's approval before you book.

### 3.2 What we reimburse

We reimburse reasonable costs that you incur because of your work: transport, accommodation, meals while travelling (up to the daily allowance), conference fees, and the equipment listed in the home-office policy. We do not reimburse fines, personal entertainment, minibar charges, or upgrades you chose for comfort.

Submit receipts in the expense tool within 30 days of the cost. Claims older than 90 days cannot be paid.

### 3.3 Corporate cards

Corporate cards are issued to employees who travel more than four times a year. The card is for business costs only. A personal charge made by mistake must be reported and repaid within ten days.

## 4. Information security

### 4.1 Classification

All information we handle falls into one of four classes: **Public**, **Internal**, **Confidential** and **Restricted**. Customer data is always at least Confidential. Source code is Internal unless a repository says otherwise. When in doubt, treat information as one class higher than you think.

### 4.2 Devices

Company laptops are encrypted, managed and updated automatically. Do not disable the endpoint agent, and do not install software from outside the approved catalogue without a ticket to IT. Personal phones may be used for chat and email if they have a screen lock and the management profile installed.

### 4.3 Reporting incidents

If you lose a device, click a suspicious link, or see data where it should not be, report it immediately in the #security-incidents channel or by phone to the on-call number on the intranet. Reporting quickly is always the right call, even if you are not sure anything happened. Nobody is disciplined for reporting their own mistake in good faith.

## 5. Conduct

### 5.1 Respect

We expect everyone to treat colleagues, customers and partners with courtesy. Harassment, discrimination and retaliation are not tolerated, whether they happen in the office, online, at events or at social gatherings connected with work.

### 5.2 Conflicts of interest

Tell your manager about any outside work, investment or relationship that could influence — or look like it could influence — a decision you make for Northwind. Most conflicts can be managed once they are known; the problem is the undisclosed one.

### 5.3 Gifts

You may accept gifts or hospitality worth up to 50 EUR per person per year from any one business partner. Anything above that must be declared in the gifts register, and cash or cash equivalents must always be declined.

## 6. Raising concerns

If you see something that breaks the law or this handbook, raise it with your manager, with People Operations, or anonymously through the whistleblowing portal. Concerns are investigated by someone outside your reporting line, and you will hear back within three months about what was done.

---

*Questions about this handbook: people-ops@northwind.example. Last reviewed by the Works Council in March.*
`;
